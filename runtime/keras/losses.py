"""Keras 3 losses (TF backend formulas), reduced by ``sum_over_batch_size`` (a mean)."""

from __future__ import annotations

from typing import Any

from runtime.convert import convert_to_tensor
from runtime.ops import math as M
from runtime.ops import nn as N

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


class Loss:
    """A loss object: per-example values averaged over the batch."""

    def __init__(self, fn: Any, name: str, **kwargs: Any) -> None:
        self.fn, self.name, self.kwargs = fn, name, kwargs

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        values = self.fn(y_true, y_pred, **self.kwargs)
        if sample_weight is not None:
            values = M.multiply(values, M.cast(convert_to_tensor(sample_weight), values.dtype))
        return M.reduce_mean(values)


class MeanSquaredError(Loss):
    def __init__(self, reduction: str = "sum_over_batch_size", name: str = "mean_squared_error") -> None:
        super().__init__(mean_squared_error, name)


class MeanAbsoluteError(Loss):
    def __init__(self, reduction: str = "sum_over_batch_size", name: str = "mean_absolute_error") -> None:
        super().__init__(mean_absolute_error, name)


class CategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str = "sum_over_batch_size", name: str = "categorical_crossentropy") -> None:
        if label_smoothing:
            from runtime.errors import Unsupported

            raise Unsupported("tf.keras.losses.CategoricalCrossentropy(label_smoothing=...)")
        super().__init__(categorical_crossentropy, name, from_logits=from_logits, axis=axis)


class SparseCategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, ignore_class: Any = None,
                 reduction: str = "sum_over_batch_size", name: str = "sparse_categorical_crossentropy") -> None:
        super().__init__(sparse_categorical_crossentropy, name, from_logits=from_logits)


class BinaryCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str = "sum_over_batch_size", name: str = "binary_crossentropy") -> None:
        if label_smoothing:
            from runtime.errors import Unsupported

            raise Unsupported("tf.keras.losses.BinaryCrossentropy(label_smoothing=...)")
        super().__init__(binary_crossentropy, name, from_logits=from_logits)


TABLE = {
    "MeanSquaredError": MeanSquaredError, "MeanAbsoluteError": MeanAbsoluteError,
    "CategoricalCrossentropy": CategoricalCrossentropy,
    "SparseCategoricalCrossentropy": SparseCategoricalCrossentropy, "BinaryCrossentropy": BinaryCrossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "binary_crossentropy": binary_crossentropy, "MSE": mean_squared_error, "mse": mean_squared_error,
    "MAE": mean_absolute_error, "mae": mean_absolute_error,
    "Loss": Loss,
}
