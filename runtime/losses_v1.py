"""``tf.compat.v1.losses``: per-element losses reduced by SUM_BY_NONZERO_WEIGHTS (the TF1 default)."""

from __future__ import annotations

from typing import Any

from runtime import context, trace
from runtime.convert import convert_to_tensor
from runtime.graph import GraphKeys
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.update_rules import build_rule


class Reduction:
    """``tf.compat.v1.losses.Reduction``."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)


def _safe_div(total: Any, count: Any) -> Any:
    return M.where(M.greater(count, 0.0), M.truediv(total, M.maximum(count, 1.0)), M.zeros_like(total))


#: What each reduction computes, in the words Keras's reductions are told in (``keras.losses``),
#: with one weight for every value (a number) and with a weight per value (a tensor).
REDUCED_AS = {
    Reduction.NONE: ("none", "none"),
    Reduction.SUM: ("sum", "sum"),
    Reduction.MEAN: ("mean", "weighted_mean"),
    Reduction.SUM_OVER_BATCH_SIZE: ("mean", "mean"),
    Reduction.SUM_BY_NONZERO_WEIGHTS: ("mean", "mean_over_nonzero_weights"),
}


def _weighted_mean(losses: Any, weights: Any, reduction: Any = None,
                   loss_collection: Any = GraphKeys.LOSSES) -> Any:
    """TF's ``compute_weighted_loss``: weight, then reduce (default SUM_BY_NONZERO_WEIGHTS)."""
    reduction = reduction or Reduction.SUM_BY_NONZERO_WEIGHTS
    if reduction not in Reduction.all():
        raise ValueError(f"Invalid Reduction Key {reduction}.")
    one_weight = isinstance(weights, (int, float)) and weights != 0
    trace.configured(build_rule("loss", reduction=REDUCED_AS[reduction][0 if one_weight else 1]))
    losses = convert_to_tensor(losses)
    w = M.multiply(M.ones_like(losses), convert_to_tensor(weights, dtype_hint=losses.dtype))
    weighted = M.multiply(losses, w)
    if reduction == Reduction.NONE:
        out = weighted
    else:
        out = M.reduce_sum(weighted)
        if reduction == Reduction.MEAN:
            out = _safe_div(out, M.reduce_sum(w))
        elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
            out = _safe_div(out, M.reduce_sum(M.cast(M.not_equal(w, 0.0), losses.dtype)))
        elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
            out = _safe_div(out, M.cast(A.size(losses), losses.dtype))
    if loss_collection and not context.executing_eagerly():
        context.get_default_graph().add_to_collection(loss_collection, out)
    return out


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: Any = None,
                          loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    """``tf.compat.v1.losses.compute_weighted_loss``."""
    return _weighted_mean(losses, weights, reduction, loss_collection)


def huber_loss(labels: Any, predictions: Any, weights: Any = 1.0, delta: float = 1.0, scope: Any = None,
               loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    """0.5 * min(|e|, delta)^2 + delta * (|e| - min(|e|, delta)), with e = predictions - labels."""
    p = convert_to_tensor(predictions)
    err = M.abs(M.subtract(p, M.cast(convert_to_tensor(labels), p.dtype)))
    quadratic = M.minimum(err, delta)
    losses = M.add(M.multiply(0.5, M.square(quadratic)), M.multiply(delta, M.subtract(err, quadratic)))
    return _weighted_mean(losses, weights, reduction, loss_collection)


def log_loss(labels: Any, predictions: Any, weights: Any = 1.0, epsilon: float = 1e-7, scope: Any = None,
             loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    p = convert_to_tensor(predictions)
    y = M.cast(convert_to_tensor(labels), p.dtype)
    losses = M.subtract(M.negative(M.multiply(y, M.log(M.add(p, epsilon)))),
                        M.multiply(M.subtract(1.0, y), M.log(M.add(M.subtract(1.0, p), epsilon))))
    return _weighted_mean(losses, weights, reduction, loss_collection)


def hinge_loss(labels: Any, logits: Any, weights: Any = 1.0, scope: Any = None,
               loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    z = convert_to_tensor(logits)
    y = M.subtract(M.multiply(2.0, M.cast(convert_to_tensor(labels), z.dtype)), 1.0)
    return _weighted_mean(M.relu(M.subtract(1.0, M.multiply(y, z))), weights, reduction, loss_collection)


def mean_squared_error(labels: Any, predictions: Any, weights: Any = 1.0, scope: Any = None,
                       loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    p = convert_to_tensor(predictions)
    losses = M.squared_difference(p, M.cast(convert_to_tensor(labels), p.dtype))
    return _weighted_mean(losses, weights, reduction, loss_collection)


def absolute_difference(labels: Any, predictions: Any, weights: Any = 1.0, scope: Any = None,
                        loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    p = convert_to_tensor(predictions)
    losses = M.abs(M.subtract(p, M.cast(convert_to_tensor(labels), p.dtype)))
    return _weighted_mean(losses, weights, reduction, loss_collection)


def softmax_cross_entropy(onehot_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None, loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    logits = convert_to_tensor(logits)
    labels = M.cast(convert_to_tensor(onehot_labels), logits.dtype)
    if label_smoothing:
        n = M.cast(A.shape(labels)[-1], logits.dtype)
        labels = M.add(M.multiply(labels, 1.0 - label_smoothing), M.truediv(label_smoothing, n))
    losses = N.softmax_cross_entropy_with_logits_v2(M.stop_gradient(labels), logits)
    return _weighted_mean(losses, weights, reduction, loss_collection)


def sparse_softmax_cross_entropy(labels: Any, logits: Any, weights: Any = 1.0, scope: Any = None,
                                 loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    losses = N.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return _weighted_mean(losses, weights, reduction, loss_collection)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: Any = None, loss_collection: Any = GraphKeys.LOSSES, reduction: Any = None) -> Any:
    logits = convert_to_tensor(logits)
    labels = M.cast(convert_to_tensor(multi_class_labels), logits.dtype)
    if label_smoothing:
        labels = M.add(M.multiply(labels, 1.0 - label_smoothing), 0.5 * label_smoothing)
    losses = N.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return _weighted_mean(losses, weights, reduction, loss_collection)


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
    if max_norm is not None:
        from runtime.errors import Unsupported

        raise Unsupported("tf.nn.embedding_lookup with max_norm")
    return A.gather(params, ids, name=name)
