"""Ops that score predictions against labels: ``confusion_matrix``."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import dtypes
from runtime.convert import convert_to_tensor
from runtime.errors import invalid_argument
from runtime.ops.registry import apply, not_differentiable, register
from runtime.shapes import TensorShape
from runtime.tensor import Tensor


def _make(attrs: dict) -> Any:
    dt, fixed = attrs["dtype"], attrs["num_classes"]

    def kernel(labels: np.ndarray, predictions: np.ndarray, weights: np.ndarray) -> np.ndarray:
        labels, predictions = labels.astype(np.int64).ravel(), predictions.astype(np.int64).ravel()
        if labels.size != predictions.size:
            raise invalid_argument("labels and predictions must have the same number of elements")
        if (labels < 0).any() or (predictions < 0).any():
            raise invalid_argument("`labels` and `predictions` contain negative values")
        n = fixed if fixed is not None else int(max(labels.max(initial=-1), predictions.max(initial=-1))) + 1
        if (labels >= n).any() or (predictions >= n).any():
            raise invalid_argument("`labels` and `predictions` must be less than `num_classes`")
        out = np.zeros((n, n), dtype=dt.np)
        np.add.at(out, (labels, predictions), np.broadcast_to(weights, labels.shape).astype(dt.np))
        return out

    return kernel


def _shape(inputs: list, attrs: dict) -> list:
    n = attrs["num_classes"]
    return [(TensorShape([n, n]), attrs["dtype"])]


register("ConfusionMatrix", _make, shape_fn=_shape)
not_differentiable("ConfusionMatrix")


def confusion_matrix(labels: Any, predictions: Any, num_classes: Any = None, weights: Any = None,
                     dtype: Any = dtypes.int32, name: str | None = None) -> Tensor:
    """Rows are labels, columns predictions; the size is ``num_classes`` or max(value) + 1."""
    dt = dtypes.as_dtype(dtype)
    w = convert_to_tensor(1 if weights is None else weights)
    n = None if num_classes is None else int(num_classes)
    return apply("ConfusionMatrix", [convert_to_tensor(labels), convert_to_tensor(predictions), w],
                 {"dtype": dt, "num_classes": n}, name=name or "confusion_matrix")


def confusion_matrix_v1(labels: Any, predictions: Any, num_classes: Any = None, dtype: Any = dtypes.int32,
                        name: str | None = None, weights: Any = None) -> Tensor:
    """TF1's argument order (``dtype`` and ``name`` before ``weights``)."""
    return confusion_matrix(labels, predictions, num_classes, weights, dtype, name)
