"""Local response normalization (``tf.nn.lrn``) over the last axis, with TF's LRNGrad; and
``tf.compat.v1.nn.fused_batch_norm`` (FusedBatchNormV3, FusedBatchNormGradV3 and its gradient)."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import constant, convert_to_tensor
from runtime.errors import Unsupported, invalid_argument
from runtime.ops.registry import apply, not_differentiable, register, register_gradient
from runtime.shapes import TensorShape, dims_text
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


# --- fused batch norm (tf.compat.v1.nn.fused_batch_norm: FusedBatchNormV3) -----------------------

_FBN = "FusedBatchNormV3"
_FBN_FORMATS = ("NHWC", "NCHW", "NDHWC", "NCDHW")


def _fbn_channel_axis(data_format: str, ndim: int) -> int:
    """The kernel reads only where the format puts the channels (``N C ...`` or ``N ... C``)."""
    return 1 if data_format[1] == "C" else ndim - 1


def _fbn_layout(x: np.ndarray, data_format: str) -> tuple[tuple, list]:
    """The axes the statistics reduce over, and the shape a per-channel vector broadcasts as."""
    axis = _fbn_channel_axis(data_format, x.ndim)
    view = [1] * x.ndim
    view[axis] = -1
    return tuple(i for i in range(x.ndim) if i != axis), view


def _fbn_check(x: np.ndarray, scale: np.ndarray, offset: np.ndarray, mean: np.ndarray,
               variance: np.ndarray, attrs: dict) -> None:
    """FusedBatchNormV3's kernel checks, in its order (InvalidArgumentError eagerly or in a run)."""

    def fail(message: str) -> None:
        raise invalid_argument(f"{message} [Op:{_FBN}]")

    if x.ndim not in (4, 5):
        fail(f"input must be 4 or 5-dimensional{dims_text(x.shape)}")
    for label, v in (("scale", scale), ("offset", offset), ("estimated_mean", mean),
                     ("estimated_variance", variance)):
        if v.ndim != 1:
            fail(f"{label} must be 1-dimensional{dims_text(v.shape)}")
    depth = x.shape[_fbn_channel_axis(attrs["data_format"], x.ndim)]
    for label, v in (("scale", scale), ("offset", offset)):
        if v.shape[0] != depth:
            fail(f"{label} must have the same number of elements as the channels of x, got {v.shape[0]} and {depth}")
    if not attrs["is_training"] or attrs["exponential_avg_factor"] != 1.0:
        when = "is_training=false" if not attrs["is_training"] else "exponential_avg_factor != 1"
        for label, v in (("mean", mean), ("variance", variance)):
            if v.shape[0] != depth:
                fail(f"When {when}, {label} must have the same number of elements as the channels of x, "
                     f"got {v.shape[0]} and {depth}")


def _fbn_make(attrs: dict) -> Any:
    """y = (x - mean) * rsqrt(var + epsilon) * scale + offset, computed in float32 (TF's U).

    Training takes the batch mean and biased variance; the variance it returns is the unbiased
    one (n / (n - 1), n the elements per channel), blended as (1 - f) * given + f * batch when
    exponential_avg_factor f is not 1. Reserve spaces 1 and 2 keep the batch mean and biased
    variance for FusedBatchNormGradV3. Inference uses and returns the given mean and variance.
    (The engine's gradient checks also run it on float64, which it then computes in.)"""
    training = attrs["is_training"]

    def kernel(x: np.ndarray, scale: np.ndarray, offset: np.ndarray, mean: np.ndarray,
               variance: np.ndarray) -> tuple:
        _fbn_check(x, scale, offset, mean, variance, attrs)
        axes, view = _fbn_layout(x, attrs["data_format"])
        ft = np.result_type(x.dtype, scale.dtype, np.float32).type
        eps, factor = ft(attrs["epsilon"]), ft(attrs["exponential_avg_factor"])
        xf = x.astype(ft, copy=False)
        if training:
            with np.errstate(all="ignore"):
                use_mean = xf.mean(axis=axes, dtype=ft)
                use_var = np.square(xf - use_mean.reshape(view)).mean(axis=axes, dtype=ft)
            n = x.size // max(use_mean.size, 1)
            unbiased = use_var * ft(n / (n - 1) if n > 1 else 1.0)
            if factor != 1.0:
                out_mean = (ft(1.0) - factor) * mean.astype(ft) + factor * use_mean
                out_var = (ft(1.0) - factor) * variance.astype(ft) + factor * unbiased
            else:
                out_mean, out_var = use_mean, unbiased
        else:
            use_mean, use_var = mean.astype(ft), variance.astype(ft)
            out_mean, out_var = use_mean, use_var
        with np.errstate(all="ignore"):
            inv = (ft(1.0) / np.sqrt(use_var + eps)) * scale.astype(ft)
            y = (xf - use_mean.reshape(view)) * inv.reshape(view) + offset.astype(ft).reshape(view)
        u = scale.dtype
        return (y.astype(x.dtype), out_mean.astype(u), out_var.astype(u), use_mean.astype(u),
                use_var.astype(u), np.zeros((0,), u))

    return kernel


def _fbn_spec(inputs: list, attrs: dict) -> list:
    """TF's FusedBatchNormV3 shape function: x of rank 4 (5 for the 3-D formats), the vectors of
    rank 1 and of x's channel count; ValueError when a graph is built."""
    fmt = attrs["data_format"]
    rank = 5 if fmt in ("NDHWC", "NCDHW") else 4
    shapes = [t.shape for t in inputs]

    def fail(message: str) -> None:
        raise ValueError(f"{message} for '{_FBN}' with input shapes: {', '.join(dims_text(s) for s in shapes)}.")

    x = shapes[0]
    if x.rank is not None and x.rank != rank:
        fail(f"Shape must be rank {rank} but is rank {x.rank}")
    dims = list(x) if x.rank is not None else [None] * rank
    axis = _fbn_channel_axis(fmt, rank)
    channels = dims[axis]
    used = 3 if attrs["is_training"] and attrs["exponential_avg_factor"] == 1.0 else 5
    for s in shapes[1:used]:
        if s.rank is not None and s.rank != 1:
            fail(f"Shape must be rank 1 but is rank {s.rank}")
        d = s[0] if s.rank is not None else None
        if channels is not None and d is not None and channels != d:
            fail(f"Dimensions must be equal, but are {channels} and {d}")
        channels = channels if channels is not None else d
    dims[axis] = channels
    u = inputs[1].dtype
    vector = (TensorShape([channels]), u)
    return [(TensorShape(dims), inputs[0].dtype), vector, vector, vector, vector, (TensorShape(None), u)]


def _fbn_grad_make(attrs: dict) -> Any:
    """FusedBatchNormGradV3: dx, dscale, doffset from the reserve spaces (the batch mean and
    biased variance when training, the given ones otherwise)."""
    training = attrs["is_training"]

    def kernel(dy: np.ndarray, x: np.ndarray, scale: np.ndarray, mean: np.ndarray,
               variance: np.ndarray, _reserve: np.ndarray) -> tuple:
        axes, view = _fbn_layout(x, attrs["data_format"])
        ft = np.result_type(x.dtype, scale.dtype, np.float32).type
        eps = ft(attrs["epsilon"])
        g = dy.astype(ft, copy=False)
        with np.errstate(all="ignore"):
            rstd = ft(1.0) / np.sqrt(variance.astype(ft) + eps)
            x_hat = (x.astype(ft, copy=False) - mean.astype(ft).reshape(view)) * rstd.reshape(view)
            d_offset = g.sum(axis=axes, dtype=ft)
            d_scale = (g * x_hat).sum(axis=axes, dtype=ft)
            coef = (scale.astype(ft) * rstd).reshape(view)
            if training:
                n = ft(x.size // max(scale.size, 1))
                dx = coef / n * (n * g - d_offset.reshape(view) - x_hat * d_scale.reshape(view))
            else:
                dx = g * coef
        u = scale.dtype
        empty = np.zeros((0,), u)
        return dx.astype(x.dtype), d_scale.astype(u), d_offset.astype(u), empty, empty

    return kernel


def _fbn_grad_spec(inputs: list, attrs: dict) -> list:
    u = inputs[2].dtype
    vector = (TensorShape([inputs[2].shape[0] if inputs[2].shape.rank == 1 else None]), u)
    return [(inputs[1].shape, inputs[1].dtype), vector, vector, (TensorShape([0]), u), (TensorShape([0]), u)]


register(_FBN, _fbn_make, n_out=6, shape_fn=_fbn_spec)
register("FusedBatchNormGradV3", _fbn_grad_make, n_out=5, shape_fn=_fbn_grad_spec)


@register_gradient(_FBN)
def _fbn_grad(op: Any, grad_y: Tensor, *_: Any) -> list:
    """TF's _FusedBatchNormV3Grad: only y's gradient flows back, into x, scale and offset."""
    x, scale = op.inputs[0], op.inputs[1]
    attrs = {k: op.attrs[k] for k in ("epsilon", "data_format", "is_training")}
    if op.attrs["is_training"]:
        reserve = [op.outputs[3], op.outputs[4], op.outputs[5]]
    else:
        reserve = [op.inputs[3], op.inputs[4], op.outputs[5]]
    dx, dscale, doffset, _, _ = apply("FusedBatchNormGradV3", [grad_y, x, scale, *reserve], attrs)
    return [dx, dscale, doffset, None, None]


def _batch_norm_grad(grad_y: Tensor, x: Tensor, scale: Tensor, pop_mean: Tensor, pop_var: Tensor,
                     epsilon: float, data_format: str, is_training: bool) -> tuple:
    """TF's _BatchNormGrad: FusedBatchNormGradV3's outputs in differentiable ops."""
    from runtime.ops import array as A
    from runtime.ops import math as M

    x_dtype = x.dtype
    if x_dtype in (dtypes.float16, dtypes.bfloat16):
        x, grad_y = M.cast(x, dtypes.float32), M.cast(grad_y, dtypes.float32)
    rank = 5 if data_format in ("NDHWC", "NCDHW") else 4
    first = data_format[1] == "C"
    axes = [0, *range(2, rank)] if first else list(range(rank - 1))
    view = [1, -1] + [1] * (rank - 2)  # TF reshapes to [1, size(scale), 1, 1(, 1)]
    if is_training:
        if first:
            scale = A.reshape(scale, view)
        keep = first
        mean_grad_y = M.reduce_mean(grad_y, axes, keepdims=keep)
        mean_x = M.reduce_mean(x, axes, keepdims=keep)
        var_x = M.reduce_mean(M.squared_difference(x, M.stop_gradient(mean_x)), axes, keepdims=keep)
        grad_y_offset = M.subtract(grad_y, mean_grad_y)
        x_offset = M.subtract(x, mean_x)
        mean = M.reduce_mean(M.multiply(grad_y, x_offset), axes, keepdims=keep)
        grad_x = M.multiply(M.multiply(scale, M.rsqrt(M.add(var_x, epsilon))), M.subtract(
            grad_y_offset, M.multiply(M.multiply(M.reciprocal(M.add(var_x, epsilon)), mean), x_offset)))
        grad_scale = M.multiply(M.rsqrt(M.add(var_x, epsilon)),
                                M.reduce_sum(M.multiply(grad_y, x_offset), axes, keepdims=keep))
        if first:
            grad_scale = A.squeeze(grad_scale)
        grad_offset = M.reduce_sum(grad_y, axes)
        return M.cast(grad_x, x_dtype), grad_scale, grad_offset
    if first:
        pop_mean, pop_var, scale = A.reshape(pop_mean, view), A.reshape(pop_var, view), A.reshape(scale, view)
    grad_offset = M.reduce_sum(grad_y, axes)
    var_rsqrt = M.rsqrt(M.add(pop_var, epsilon))
    grad_scale = M.reduce_sum(M.multiply(M.multiply(grad_y, M.subtract(x, pop_mean)), var_rsqrt), axes)
    grad_x = M.multiply(M.multiply(grad_y, scale), var_rsqrt)
    return M.cast(grad_x, x_dtype), grad_scale, grad_offset


@register_gradient("FusedBatchNormGradV3")
def _fbn_grad_grad(op: Any, grad_grad_x: Tensor, grad_grad_scale: Tensor, grad_grad_offset: Tensor,
                   *_: Any) -> list:
    """TF's _FusedBatchNormGradGradV3: differentiate _batch_norm_grad with a tape."""
    from runtime.tape import GradientTape

    grad_y, x, scale, pop_mean, pop_var = op.inputs[:5]
    with GradientTape() as tape:
        tape.watch([grad_y, x, scale])
        outs = _batch_norm_grad(grad_y, x, scale, pop_mean, pop_var, op.attrs["epsilon"],
                                op.attrs["data_format"], op.attrs["is_training"])
    ggy, gx, gscale = tape.gradient(list(outs), [grad_y, x, scale],
                                    [grad_grad_x, grad_grad_scale, grad_grad_offset])
    return [ggy, gx, gscale, None, None, None]


def _fbn_dtypes(x: Tensor, vectors: list, data_format: Any) -> None:
    """TF's checks of the op's signature: x half, bfloat16 or float (T), the four vectors one of
    bfloat16 or float (U), data_format one of four; a TypeError or ValueError when a graph is
    built, InvalidArgumentError eagerly."""
    graph = not context.executing_eagerly()

    def attr(name: str, dt: dtypes.DType, allowed: str) -> Exception:
        return invalid_argument(f"Value for attr '{name}' of {dtypes.kernel_name(dt)} is not in the list of "
                                f"allowed values: {allowed}\n\t; NodeDef: {{{{node {_FBN}}}}}; Op<name={_FBN}> "
                                f"[Op:{_FBN}]")

    if x.dtype not in (dtypes.float16, dtypes.bfloat16, dtypes.float32):
        if graph:
            raise TypeError(f"Value passed to parameter 'x' has DataType {x.dtype.name} not in list of allowed "
                            "values: float16, bfloat16, float32")
        raise attr("T", x.dtype, "half, bfloat16, float")
    u = vectors[0].dtype
    if u not in (dtypes.bfloat16, dtypes.float32):
        if graph:
            raise TypeError(f"Value passed to parameter 'scale' has DataType {u.name} not in list of allowed "
                            "values: bfloat16, float32")
        raise attr("U", u, "bfloat16, float")
    for i, (label, v) in enumerate(zip(("scale", "offset", "mean", "variance"), vectors)):
        if v.dtype != u:
            if graph:
                raise TypeError(f"Input '{label}' of '{_FBN}' Op has type {v.dtype.name} that does not match "
                                f"type {u.name} of argument 'scale'.")
            raise invalid_argument(f"cannot compute {_FBN} as input #{i + 1}(zero-based) was expected to be a "
                                   f"{dtypes.kernel_name(u)} tensor but is a {dtypes.kernel_name(v.dtype)} "
                                   f"tensor [Op:{_FBN}]")
    if data_format not in _FBN_FORMATS:
        allowed = ", ".join(f'"{f}"' for f in _FBN_FORMATS)
        if graph:
            raise ValueError(f"Attr 'data_format' of '{_FBN}' Op passed string '{data_format}' not in: {allowed}.")
        raise invalid_argument(f'Value for attr \'data_format\' of "{data_format}" is not in the list of allowed '
                               f"values: {allowed}\n\t; NodeDef: {{{{node {_FBN}}}}}; Op<name={_FBN}> [Op:{_FBN}]")
    if dtypes.bfloat16 in (x.dtype, u):
        raise Unsupported("tf.compat.v1.nn.fused_batch_norm with bfloat16")


def fused_batch_norm(x: Any, scale: Any, offset: Any, mean: Any = None, variance: Any = None,
                     epsilon: float = 0.001, data_format: str = "NHWC", is_training: bool = True,
                     name: str | None = None, exponential_avg_factor: float = 1.0) -> tuple:
    """``tf.compat.v1.nn.fused_batch_norm``: one FusedBatchNormV3 op; returns (y, batch_mean,
    batch_var), the variance unbiased when training (see ``_fbn_make``)."""
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and `variance` {variance!r}")
    if isinstance(is_training, Tensor):
        raise TypeError(f"Expected bool for argument 'is_training' not {is_training!r}.")
    x = convert_to_tensor(x, name="input")
    scale = convert_to_tensor(scale, name="scale")
    offset = convert_to_tensor(offset, name="offset")
    # Given as values, the statistics take scale's type (the op's U), as TF's op builder converts them.
    mean, variance = (constant([]) if v is None else convert_to_tensor(
        v, dtype=None if isinstance(v, Tensor) or hasattr(v, "_as_tensor") else scale.dtype)
        for v in (mean, variance))
    _fbn_dtypes(x, [scale, offset, mean, variance], data_format)
    attrs = {"epsilon": float(epsilon), "exponential_avg_factor": float(exponential_avg_factor),
             "data_format": data_format, "is_training": bool(is_training)}
    y, batch_mean, batch_var, _, _, _ = apply(_FBN, [x, scale, offset, mean, variance], attrs, name=name)
    return y, batch_mean, batch_var
