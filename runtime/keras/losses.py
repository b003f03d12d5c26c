"""Keras 3 losses (TF backend formulas), reduced by ``sum_over_batch_size`` (a mean)."""

from __future__ import annotations

from typing import Any

from runtime import trace
from runtime.convert import convert_to_tensor
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.update_rules import build_rule

EPSILON = 1e-7


def _pair(y_true: Any, y_pred: Any) -> tuple:
    p = convert_to_tensor(y_pred)
    return M.cast(convert_to_tensor(y_true), p.dtype), p


def mean_squared_error(y_true: Any, y_pred: Any) -> Any:
    t, p = _pair(y_true, y_pred)
    return M.reduce_mean(M.square(M.subtract(t, p)), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Any:
    t, p = _pair(y_true, y_pred)
    return M.reduce_mean(M.abs(M.subtract(t, p)), axis=-1)


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, axis: int = -1) -> Any:
    t, p = _pair(y_true, y_pred)
    if from_logits:
        return N.softmax_cross_entropy_with_logits_v2(t, p, axis=axis)
    p = M.truediv(p, M.reduce_sum(p, axis, keepdims=True))
    p = M.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return M.negative(M.reduce_sum(M.multiply(t, M.log(p)), axis))


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, axis: int = -1) -> Any:
    p = convert_to_tensor(y_pred)
    labels = M.cast(convert_to_tensor(y_true), "int32")
    if labels.shape.rank is not None and p.shape.rank is not None and labels.shape.rank == p.shape.rank:
        from runtime.ops.array import squeeze

        labels = squeeze(labels, [-1])
    if from_logits:
        return N.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=p)
    from runtime.ops.array import one_hot

    return categorical_crossentropy(one_hot(labels, p.shape[-1], dtype=p.dtype), p)


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False) -> Any:
    t, p = _pair(y_true, y_pred)
    if from_logits:
        return M.reduce_mean(N.sigmoid_cross_entropy_with_logits(labels=t, logits=p), axis=-1)
    p = M.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    bce = M.add(M.multiply(t, M.log(p)), M.multiply(M.subtract(1.0, t), M.log(M.subtract(1.0, p))))
    return M.reduce_mean(M.negative(bce), axis=-1)


REDUCTIONS = (None, "none", "sum", "sum_over_batch_size", "mean", "mean_with_sample_weight")
#: What each reduction computes, in one vocabulary with TF1's (``losses_v1.REDUCED_AS``).
REDUCED_AS = {None: "none", "none": "none", "sum": "sum", "sum_over_batch_size": "mean",
              "mean": "mean", "mean_with_sample_weight": "weighted_mean"}


class Loss:
    """A loss object: per-example values (times ``sample_weight``), then Keras 3's reduction."""

    def __init__(self, fn: Any, name: str, reduction: Any = "sum_over_batch_size", **kwargs: Any) -> None:
        if reduction not in REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. "
                             f"Received: reduction={reduction}")
        self.fn, self.name, self.reduction, self.kwargs = fn, name, reduction, kwargs
        trace.configured(build_rule("loss", reduction=REDUCED_AS[reduction]))

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        if isinstance(y_true, (list, tuple)) != isinstance(y_pred, (list, tuple)):
            # Keras maps convert_to_tensor over each structure, then asserts they match: a Python
            # list of labels against a tensor of predictions is a structure mismatch.
            kind = type(y_true if isinstance(y_true, (list, tuple)) else y_pred).__name__
            other = y_pred if isinstance(y_true, (list, tuple)) else y_true
            raise ValueError(f"Expected an instance of {kind}, got {other!r}.")
        values = self.fn(y_true, y_pred, **self.kwargs)
        weights = None
        if sample_weight is not None:
            weights = M.multiply(M.ones_like(values), M.cast(convert_to_tensor(sample_weight), values.dtype))
            values = M.multiply(values, weights)
        if self.reduction in (None, "none"):
            return values
        total = M.reduce_sum(values)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean_with_sample_weight" and weights is not None:
            return M.truediv(total, M.reduce_sum(weights))
        return M.truediv(total, M.cast(A.size(values), values.dtype))


class MeanSquaredError(Loss):
    def __init__(self, reduction: str = "sum_over_batch_size", name: str = "mean_squared_error") -> None:
        super().__init__(mean_squared_error, name, reduction)


class MeanAbsoluteError(Loss):
    def __init__(self, reduction: str = "sum_over_batch_size", name: str = "mean_absolute_error") -> None:
        super().__init__(mean_absolute_error, name, reduction)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Any:
    """Mean over the last axis of 0.5 e^2 (|e| <= delta) or delta * (|e| - 0.5 delta)."""
    t, p = _pair(y_true, y_pred)
    err = M.abs(M.subtract(p, t))
    small = M.multiply(0.5, M.square(err))
    large = M.multiply(delta, M.subtract(err, 0.5 * delta))
    return M.reduce_mean(M.where(M.less_equal(err, delta), small, large), axis=-1)


class Huber(Loss):
    def __init__(self, delta: float = 1.0, reduction: str = "sum_over_batch_size", name: str = "huber_loss") -> None:
        super().__init__(huber, name, reduction, delta=delta)


class CategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str = "sum_over_batch_size", name: str = "categorical_crossentropy") -> None:
        if label_smoothing:
            from runtime.errors import Unsupported

            raise Unsupported("tf.keras.losses.CategoricalCrossentropy(label_smoothing=...)")
        super().__init__(categorical_crossentropy, name, reduction, from_logits=from_logits, axis=axis)


class SparseCategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, ignore_class: Any = None,
                 reduction: str = "sum_over_batch_size", name: str = "sparse_categorical_crossentropy") -> None:
        super().__init__(sparse_categorical_crossentropy, name, reduction, from_logits=from_logits)


class BinaryCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str = "sum_over_batch_size", name: str = "binary_crossentropy") -> None:
        if label_smoothing:
            from runtime.errors import Unsupported

            raise Unsupported("tf.keras.losses.BinaryCrossentropy(label_smoothing=...)")
        super().__init__(binary_crossentropy, name, reduction, from_logits=from_logits)


TABLE = {
    "MeanSquaredError": MeanSquaredError, "MeanAbsoluteError": MeanAbsoluteError,
    "CategoricalCrossentropy": CategoricalCrossentropy,
    "SparseCategoricalCrossentropy": SparseCategoricalCrossentropy, "BinaryCrossentropy": BinaryCrossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "binary_crossentropy": binary_crossentropy, "MSE": mean_squared_error, "mse": mean_squared_error,
    "MAE": mean_absolute_error, "mae": mean_absolute_error,
    "Loss": Loss, "Huber": Huber, "huber": huber,
}
