"""``tf.compat.v1.losses``: per-element losses reduced by SUM_BY_NONZERO_WEIGHTS (the TF1 default)."""

from __future__ import annotations

from typing import Any

from runtime import context
from runtime.convert import convert_to_tensor
from runtime.graph import GraphKeys
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N


def _weighted_mean(losses: Any, weights: Any) -> Any:
    losses = convert_to_tensor(losses)
    w = M.multiply(M.ones_like(losses), convert_to_tensor(weights, dtype_hint=losses.dtype))
    total = M.reduce_sum(M.multiply(losses, w))
    present = M.reduce_sum(M.cast(M.not_equal(w, 0.0), losses.dtype))
    out = M.where(M.greater(present, 0.0), M.truediv(total, M.maximum(present, 1.0)), M.zeros_like(total))
    if not context.executing_eagerly():
        context.get_default_graph().add_to_collection(GraphKeys.LOSSES, out)
    return out


def mean_squared_error(labels: Any, predictions: Any, weights: Any = 1.0, scope: Any = None,
                       loss_collection: Any = None, reduction: Any = None) -> Any:
    p = convert_to_tensor(predictions)
    return _weighted_mean(M.squared_difference(p, M.cast(convert_to_tensor(labels), p.dtype)), weights)


def absolute_difference(labels: Any, predictions: Any, weights: Any = 1.0, scope: Any = None,
                        loss_collection: Any = None, reduction: Any = None) -> Any:
    p = convert_to_tensor(predictions)
    return _weighted_mean(M.abs(M.subtract(p, M.cast(convert_to_tensor(labels), p.dtype))), weights)


def softmax_cross_entropy(onehot_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None, loss_collection: Any = None, reduction: Any = None) -> Any:
    logits = convert_to_tensor(logits)
    labels = M.cast(convert_to_tensor(onehot_labels), logits.dtype)
    if label_smoothing:
        n = M.cast(A.shape(labels)[-1], logits.dtype)
        labels = M.add(M.multiply(labels, 1.0 - label_smoothing), M.truediv(label_smoothing, n))
    return _weighted_mean(N.softmax_cross_entropy_with_logits_v2(M.stop_gradient(labels), logits), weights)


def sparse_softmax_cross_entropy(labels: Any, logits: Any, weights: Any = 1.0, scope: Any = None,
                                 loss_collection: Any = None, reduction: Any = None) -> Any:
    return _weighted_mean(N.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits), weights)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None, loss_collection: Any = None, reduction: Any = None) -> Any:
    logits = convert_to_tensor(logits)
    labels = M.cast(convert_to_tensor(multi_class_labels), logits.dtype)
    if label_smoothing:
        labels = M.add(M.multiply(labels, 1.0 - label_smoothing), 0.5 * label_smoothing)
    return _weighted_mean(N.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), weights)


def get_regularization_losses(scope: Any = None) -> list:
    return context.get_default_graph().get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope: Any = None, name: str = "total_regularization_loss") -> Any:
    """The sum of the REGULARIZATION_LOSSES collection, or 0.0 when it is empty."""
    losses = get_regularization_losses(scope)
    if losses:
        return M.add_n(losses, name=name)
    return convert_to_tensor(0.0)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss", scope: Any = None) -> Any:
    losses = get_losses(scope) + (get_regularization_losses(scope) if add_regularization_losses else [])
    return M.add_n(losses, name=name)


def add_loss(loss: Any, loss_collection: str = GraphKeys.LOSSES) -> None:
    if loss_collection and not context.executing_eagerly():
        context.get_default_graph().add_to_collection(loss_collection, loss)


def get_losses(scope: Any = None, loss_collection: str = GraphKeys.LOSSES) -> list:
    return context.get_default_graph().get_collection(loss_collection, scope)


def embedding_lookup(params: Any, ids: Any, partition_strategy: str = "mod", name: Any = None,
                     validate_indices: bool = True, max_norm: Any = None) -> Any:
    """``tf.nn.embedding_lookup`` for a single (unpartitioned) parameter tensor."""
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            from runtime.errors import Unsupported

            raise Unsupported("tf.nn.embedding_lookup with partitioned params")
        params = params[0]
    return A.gather(params, ids, name=name)
