"""Local response normalization (``tf.nn.lrn``) over the last axis, with TF's LRNGrad."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime.convert import convert_to_tensor
from runtime.ops.registry import apply, not_differentiable, register, register_gradient
from runtime.tensor import Tensor


def _window_sum(x: np.ndarray, radius: int) -> np.ndarray:
    """Sum over ``[d - radius, d + radius]`` of the last axis, clipped at the edges."""
    depth = x.shape[-1]
    c = np.concatenate([np.zeros(x.shape[:-1] + (1,), x.dtype), np.cumsum(x, axis=-1)], axis=-1)
    hi = np.minimum(np.arange(depth) + radius + 1, depth)
    lo = np.maximum(np.arange(depth) - radius, 0)
    return c[..., hi] - c[..., lo]


def _norm(x: np.ndarray, attrs: dict) -> np.ndarray:
    return attrs["bias"] + attrs["alpha"] * _window_sum(x * x, attrs["radius"])


def _lrn_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray) -> np.ndarray:
        return (x * _norm(x, attrs) ** -attrs["beta"]).astype(x.dtype)

    return kernel


def _lrn_grad_make(attrs: dict) -> Any:
    """dx = g * N^-b - 2ab * x * window_sum(g * x * N^(-b-1)) (the window is symmetric)."""
    alpha, beta, radius = attrs["alpha"], attrs["beta"], attrs["radius"]

    def kernel(g: np.ndarray, x: np.ndarray) -> np.ndarray:
        n = _norm(x, attrs)
        inner = _window_sum(g * x * n ** (-beta - 1), radius)
        return (g * n ** -beta - 2 * alpha * beta * x * inner).astype(x.dtype)

    return kernel


register("LRN", _lrn_make)
register("LRNGrad", _lrn_grad_make)
not_differentiable("LRNGrad")


@register_gradient("LRN")
def _lrn_grad(op: Any, grad: Tensor) -> list:
    return [apply("LRNGrad", [grad, op.inputs[0]], dict(op.attrs))]


def local_response_normalization(input: Any, depth_radius: int = 5, bias: float = 1.0,
                                 alpha: float = 1.0, beta: float = 0.5, name: str | None = None) -> Tensor:
    """``tf.nn.lrn``: x / (bias + alpha * sum of squares over the depth window) ** beta."""
    x = convert_to_tensor(input)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {x.shape.rank} for 'LRN'")
    attrs = {"radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha), "beta": float(beta)}
    return apply("LRN", [x], attrs, name=name)
