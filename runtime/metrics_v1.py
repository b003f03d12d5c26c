"""TF 1.x streaming metrics (``tf.compat.v1.metrics``): local ``total``/``count`` variables, an
``update_op`` that accumulates a batch, and a value tensor that reads the running result.
``tf.local_variables_initializer()`` must run first, as in TF."""

from __future__ import annotations

from typing import Any

from runtime import context, dtypes
from runtime.control_flow import control_dependencies
from runtime.convert import convert_to_tensor
from runtime.graph import GraphKeys
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.tensor import Tensor
from runtime.variable_scope import variable_scope
from runtime.variables import Variable

METRIC_VARIABLES = "metric_variables"


def _metric_variable(name: str) -> Variable:
    return Variable(A.zeros([], dtypes.float32), trainable=False, name=name,
                    collections=[GraphKeys.LOCAL_VARIABLES, METRIC_VARIABLES])


def _div_no_nan(t: Tensor, c: Tensor, name: str) -> Tensor:
    """``t / c``, 0 where ``c`` is 0 (no metric value before the first update)."""
    c = M.maximum(c, 0.0)
    safe = M.where(M.greater(c, 0.0), c, A.ones_like(c))
    return M.where(M.greater(c, 0.0), M.truediv(t, safe), A.zeros_like(t), name=name)


def _squeeze_last(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """TF's _remove_squeezable_dimensions: drop a trailing size-1 axis that only one side has."""
    ra, rb = a.shape.rank, b.shape.rank
    if ra is not None and rb is not None:
        if ra == rb + 1 and a.shape[-1] == 1:
            a = A.squeeze(a, [-1])
        elif rb == ra + 1 and b.shape[-1] == 1:
            b = A.squeeze(b, [-1])
    return a, b


def mean(values: Any, weights: Any = None, metrics_collections: Any = None, updates_collections: Any = None,
         name: str | None = None) -> tuple[Tensor, Tensor]:
    """``tf.compat.v1.metrics.mean``: (running mean, update_op)."""
    if context.executing_eagerly():
        raise RuntimeError("tf.metrics.mean is not supported when eager execution is enabled.")
    with variable_scope(name, "mean", (values, weights)):
        values = M.cast(convert_to_tensor(values), dtypes.float32)
        total = _metric_variable("total")
        count = _metric_variable("count")
        if weights is None:
            num_values = M.cast(A.size(values), dtypes.float32)
        else:
            w = M.cast(convert_to_tensor(weights), dtypes.float32)
            values, w = _squeeze_last(values, w)
            w = M.add(w, A.zeros_like(values))
            values = M.multiply(values, w)
            num_values = M.reduce_sum(w)
        update_total = total.assign_add(M.reduce_sum(values))
        with control_dependencies([values]):
            update_count = count.assign_add(num_values)
        value = _div_no_nan(total.read_value(), count.read_value(), name="value")
        update_op = _div_no_nan(update_total, update_count, name="update_op")
    for key, t in ((metrics_collections, value), (updates_collections, update_op)):
        for col in key or ():
            context.get_default_graph().add_to_collection(col, t)
    return value, update_op


def accuracy(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
             updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``tf.compat.v1.metrics.accuracy``: the running fraction of ``predictions == labels``."""
    if context.executing_eagerly():
        raise RuntimeError("tf.metrics.accuracy is not supported when eager execution is enabled.")
    predictions, labels = _squeeze_last(convert_to_tensor(predictions), convert_to_tensor(labels))
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
    if labels.dtype != predictions.dtype:
        predictions = M.cast(predictions, labels.dtype)
    is_correct = M.cast(M.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")
