"""Neural-network ops: activations with axes, cross entropies, conv/pool, bias_add, dropout."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes, trace
from runtime.convert import binary_operands, convert_to_tensor
from runtime.errors import invalid_argument
from runtime.ops import math as m
from runtime.ops.array import expand_dims
from runtime.ops.registry import apply, not_differentiable, register, register_gradient
from runtime.shapes import dims_text
from runtime.tensor import Tensor
from runtime.update_rules import build_rule


def _softmax_make(attrs: dict) -> Any:
    axis, log = attrs["axis"], attrs["log"]

    def kernel(x: np.ndarray) -> np.ndarray:
        shifted = x - np.max(x, axis=axis, keepdims=True)
        e = np.exp(shifted)
        s = np.sum(e, axis=axis, keepdims=True)
        return (shifted - np.log(s)) if log else e / s

    return kernel


register("Softmax", _softmax_make)


@register_gradient("Softmax")
def _softmax_grad(op: Any, grad: Tensor) -> list:
    y = op.outputs[0]
    axis = op.attrs["axis"]
    if op.attrs["log"]:
        return [m.subtract(grad, m.multiply(m.reduce_sum(grad, axis, keepdims=True), m.exp(y)))]
    return [m.multiply(m.subtract(grad, m.reduce_sum(m.multiply(grad, y), axis, keepdims=True)), y)]


def softmax(logits: Any, axis: int = -1, name: str | None = None, dim: Any = None) -> Tensor:
    ax = axis if dim is None else dim
    return apply("Softmax", [convert_to_tensor(logits)], {"axis": -1 if ax is None else ax, "log": False}, name=name)


def log_softmax(logits: Any, axis: int = -1, name: str | None = None, dim: Any = None) -> Tensor:
    ax = axis if dim is None else dim
    return apply("Softmax", [convert_to_tensor(logits)], {"axis": -1 if ax is None else ax, "log": True},
                 name=name or "LogSoftmax")


def _xent_kernel(logits: np.ndarray, labels: np.ndarray) -> tuple:
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    e = np.exp(shifted)
    s = np.sum(e, axis=-1, keepdims=True)
    loss = np.sum(labels * (np.log(s) - shifted), axis=-1)
    return loss, e / s - labels


register("SoftmaxCrossEntropyWithLogits", lambda attrs: _xent_kernel, n_out=2)


def _backprop_grad(op: Any, grad: Tensor, grad_backprop: Any) -> Tensor:
    """d/dlogits from the loss (through the forward's second output, softmax(logits) - labels,
    computed as ``softmax`` computes it) plus, when a gradient flowed into that second output
    (a second derivative), its term through the softmax Jacobian."""
    result = m.multiply(expand_dims(grad, -1), op.outputs[1])
    if grad_backprop is None or getattr(grad_backprop, "_is_zeros_tensor", False):
        return result
    p = softmax(op.inputs[0])
    inner = m.reduce_sum(m.multiply(grad_backprop, p), -1, keepdims=True)
    return m.add(result, m.multiply(m.subtract(grad_backprop, inner), p))


@register_gradient("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op: Any, grad_loss: Tensor, grad_backprop: Any) -> list:
    g = expand_dims(grad_loss, -1)
    return [_backprop_grad(op, grad_loss, grad_backprop), m.multiply(g, m.negative(log_softmax(op.inputs[0])))]


def _move_last(x: Tensor, axis: int) -> Tensor:
    if axis in (-1, (x.shape.rank or 0) - 1):
        return x
    from runtime.ops.array import transpose

    r = x.shape.rank
    perm = [i for i in range(r) if i != axis % r] + [axis % r]
    return transpose(x, perm)


def softmax_cross_entropy_with_logits_v2(labels: Any, logits: Any, axis: int = -1,
                                         name: str | None = None, dim: Any = None) -> Tensor:
    """TF2 ``tf.nn.softmax_cross_entropy_with_logits``: gradients flow into labels."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype_hint=logits.dtype)
    ax = axis if dim is None else dim
    loss, _ = apply("SoftmaxCrossEntropyWithLogits", [_move_last(logits, ax), _move_last(labels, ax)], name=name)
    return loss


def softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      dim: int = -1, name: str | None = None, axis: Any = None) -> Tensor:
    """TF1 ``tf.nn.softmax_cross_entropy_with_logits``: labels get no gradient."""
    return softmax_cross_entropy_with_logits_v2(m.stop_gradient(convert_to_tensor(labels)), logits,
                                                axis if axis is not None else dim, name)


def _sparse_xent_kernel(logits: np.ndarray, labels: np.ndarray) -> tuple:
    n = logits.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= n):
        bad = labels[(labels < 0) | (labels >= n)].ravel()[0]
        raise invalid_argument(f"Received a label value of {bad} which is outside the valid range of [0, {n}).")
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    e = np.exp(shifted)
    s = np.sum(e, axis=-1, keepdims=True)
    logp = shifted - np.log(s)
    loss = -np.take_along_axis(logp, labels[..., None].astype(np.int64), axis=-1)[..., 0]
    return loss, e / s - (labels[..., None] == np.arange(n)).astype(logits.dtype)


register("SparseSoftmaxCrossEntropyWithLogits", lambda attrs: _sparse_xent_kernel, n_out=2)


@register_gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op: Any, grad_loss: Tensor, grad_backprop: Any) -> list:
    return [_backprop_grad(op, grad_loss, grad_backprop), None]


def sparse_softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None,
                                             logits: Any = None, name: str | None = None) -> Tensor:
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype_hint=dtypes.int32)
    loss, _ = apply("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], name=name)
    return loss


def sigmoid_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      name: str | None = None) -> Tensor:
    x = convert_to_tensor(logits)
    z = convert_to_tensor(labels, dtype_hint=x.dtype)
    zeros = m.zeros_like(x)
    relu_logits = m.where(m.greater_equal(x, zeros), x, zeros)
    neg_abs = m.where(m.greater_equal(x, zeros), m.negative(x), x)
    return m.add(m.subtract(relu_logits, m.multiply(x, z)), m.log1p(m.exp(neg_abs)), name=name)


def _bias_add_shapes(x: Tensor, b: Tensor, channels_first: bool) -> None:
    """TF's shape checks of BiasAdd, which does not broadcast: a ValueError when a graph is
    built (shape inference), the kernel's InvalidArgumentError eagerly."""
    graph = None
    if x.shape.rank is not None and x.shape.rank < 2:
        graph = f"Shape must be at least rank 2 but is rank {x.shape.rank}"
        eager = f"Input tensor must be at least 2D: {dims_text(x.shape)}"
    elif b.shape.rank is not None and b.shape.rank != 1:
        graph = f"Shape must be rank 1 but is rank {b.shape.rank}"
        eager = f"Biases must be 1D: {dims_text(b.shape)}"
    elif x.shape.rank is not None and b.shape.rank is not None:
        channels, size = x.shape[1 if channels_first else -1], b.shape[0]
        if channels is not None and size is not None and channels != size:
            graph = f"Dimensions must be equal, but are {channels} and {size}"
            eager = (f"Must provide as many biases as the last dimension of the input tensor: "
                     f"{dims_text(b.shape)} vs. {dims_text(x.shape)}")
    if graph is None:
        return
    if context.executing_eagerly():
        raise invalid_argument(f"{eager} [Op:BiasAdd]")
    raise ValueError(f"{graph} for BiasAdd with input shapes: {dims_text(x.shape)}, {dims_text(b.shape)}.")


def bias_add(value: Any, bias: Any, data_format: Any = None, name: str | None = None) -> Tensor:
    x, b = binary_operands("BiasAdd", value, bias)
    _bias_add_shapes(x, b, data_format in ("NCHW", "NCW", "NCDHW"))
    if data_format in ("NCHW", "NCW", "NCDHW"):
        from runtime.ops.array import reshape

        b = reshape(b, [-1] + [1] * ((x.shape.rank or 2) - 2))
    return m.add(x, b, name=name or "BiasAdd")


def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None, dim: Any = None) -> Tensor:
    x = convert_to_tensor(x)
    ax = axis if axis is not None else dim
    sq = m.reduce_sum(m.square(x), ax, keepdims=True)
    return m.multiply(x, m.rsqrt(m.maximum(sq, epsilon)), name=name)


def moments(x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: str | None = None,
            keep_dims: Any = None) -> tuple:
    x = convert_to_tensor(x)
    keep = keepdims if keep_dims is None else keep_dims
    mean = m.reduce_mean(x, axes, keepdims=True)
    var = m.reduce_mean(m.squared_difference(x, m.stop_gradient(mean)), axes, keepdims=True)
    if not keep:
        from runtime.ops.array import squeeze_axes

        mean, var = squeeze_axes(mean, axes), squeeze_axes(var, axes)
    return mean, var


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any,
                        variance_epsilon: float, name: str | None = None) -> Tensor:
    inv = m.rsqrt(m.add(variance, variance_epsilon))
    if scale is not None:
        inv = m.multiply(inv, scale)
    shift = m.negative(m.multiply(mean, inv)) if offset is None else m.subtract(offset, m.multiply(mean, inv))
    return m.add(m.multiply(x, m.cast(inv, convert_to_tensor(x).dtype)), shift, name=name)


# --- convolution and pooling (NHWC) ---------------------------------------------------------------


def _norm2(v: Any, default: int = 1) -> tuple[int, int]:
    if v is None:
        return default, default
    if isinstance(v, int):
        return v, v
    v = list(v)
    if len(v) == 4:
        return int(v[1]), int(v[2])
    if len(v) == 2:
        return int(v[0]), int(v[1])
    return int(v[0]), int(v[0])


def _pads(size: int, k: int, s: int, padding: str) -> tuple[int, int, int]:
    if padding == "VALID":
        out = (size - k) // s + 1
        return out, 0, 0
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2, total - total // 2


def _geometry(x_shape: tuple, kh: int, kw: int, attrs: dict) -> tuple:
    sh, sw = attrs["strides"]
    oh, pt, pb = _pads(x_shape[1], kh, sh, attrs["padding"])
    ow, pl, pr = _pads(x_shape[2], kw, sw, attrs["padding"])
    return sh, sw, oh, ow, ((0, 0), (pt, pb), (pl, pr), (0, 0))


def _columns(xp: np.ndarray, kh: int, kw: int, sh: int, sw: int, oh: int, ow: int) -> np.ndarray:
    """im2col: every output position's receptive field as one row, (N*oh*ow, kh*kw*cin)."""
    windows = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(1, 2))
    windows = windows[:, :sh * (oh - 1) + 1:sh, :sw * (ow - 1) + 1:sw]  # (N, oh, ow, cin, kh, kw)
    return windows.transpose(0, 1, 2, 4, 5, 3).reshape(-1, kh * kw * xp.shape[3])


def _conv_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray, w: np.ndarray) -> np.ndarray:
        kh, kw, cin, cout = w.shape
        sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, attrs)
        cols = _columns(np.pad(x, pads), kh, kw, sh, sw, oh, ow)
        out = cols @ w.reshape(kh * kw * cin, cout)
        return out.reshape(x.shape[0], oh, ow, cout).astype(x.dtype, copy=False)

    return kernel


def _conv_input_grad_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        kh, kw, cin, cout = w.shape
        sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, attrs)
        xp_shape = tuple(d + a + b for d, (a, b) in zip(x.shape, pads))
        cols = (g.reshape(-1, cout) @ w.reshape(kh * kw * cin, cout).T).reshape(
            g.shape[0], oh, ow, kh, kw, cin)
        dx = np.zeros(xp_shape, dtype=g.dtype)
        for i in range(kh):
            for j in range(kw):
                dx[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :] += cols[:, :, :, i, j]
        (_, _), (pt, _), (pl, _), _ = pads
        return dx[:, pt:pt + x.shape[1], pl:pl + x.shape[2], :]

    return kernel


def _conv_filter_grad_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray, w: np.ndarray, g: np.ndarray) -> np.ndarray:
        kh, kw, _, cout = w.shape
        sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, attrs)
        cols = _columns(np.pad(x, pads), kh, kw, sh, sw, oh, ow)
        return (cols.T @ g.reshape(-1, cout)).reshape(w.shape).astype(g.dtype, copy=False)

    return kernel


register("Conv2D", _conv_make)
register("Conv2DBackpropInput", _conv_input_grad_make)
register("Conv2DBackpropFilter", _conv_filter_grad_make)


@register_gradient("Conv2D")
def _conv_grad(op: Any, grad: Tensor) -> list:
    x, w = op.inputs
    return [apply("Conv2DBackpropInput", [x, w, grad], op.attrs),
            apply("Conv2DBackpropFilter", [x, w, grad], op.attrs)]


@register_gradient("Conv2DBackpropInput")
def _conv_input_grad_grad(op: Any, grad: Tensor) -> list:
    _, w, g = op.inputs
    return [None, apply("Conv2DBackpropFilter", [grad, w, g], op.attrs), apply("Conv2D", [grad, w], op.attrs)]


@register_gradient("Conv2DBackpropFilter")
def _conv_filter_grad_grad(op: Any, grad: Tensor) -> list:
    x, _, g = op.inputs
    return [apply("Conv2DBackpropInput", [x, grad, g], op.attrs), None, apply("Conv2D", [x, grad], op.attrs)]


def conv2d(input: Any, filters: Any = None, strides: Any = 1, padding: str = "VALID",
           data_format: str = "NHWC", dilations: Any = None, name: str | None = None,
           filter: Any = None, use_cudnn_on_gpu: Any = None) -> Tensor:
    if data_format not in ("NHWC", None):
        from runtime.errors import Unsupported

        raise Unsupported(f"tf.nn.conv2d with data_format={data_format}")
    w = filters if filters is not None else filter
    x, w = binary_operands("Conv2D", input, w)
    return apply("Conv2D", [x, w], {"strides": _norm2(strides), "padding": padding.upper()}, name=name)


def _pool_windows(x: np.ndarray, attrs: dict, fill: float) -> tuple:
    kh, kw = attrs["ksize"]
    sh, sw, oh, ow, pads = _geometry(x.shape, kh, kw, attrs)
    xp = np.pad(x, pads, constant_values=fill) if any(a or b for a, b in pads) else x
    views = [(i, j, xp[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :])
             for i in range(kh) for j in range(kw)]
    return views, xp.shape, pads, sh, sw, oh, ow


def _maxpool_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray) -> np.ndarray:
        views, *_ = _pool_windows(x, attrs, -np.inf)
        out = views[0][2]
        for _, _, v in views[1:]:
            out = np.maximum(out, v)
        return out.astype(x.dtype)

    return kernel


def _maxpool_grad_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        views, xp_shape, pads, sh, sw, oh, ow = _pool_windows(x, attrs, -np.inf)
        dx = np.zeros(xp_shape, dtype=g.dtype)
        taken = np.zeros(y.shape, dtype=bool)
        zero = np.zeros((), g.dtype)  # a typed zero: np.where with a Python 0 takes a slow path
        for i, j, v in views:
            hit = (v == y) & ~taken
            taken |= hit
            dx[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :] += np.where(hit, g, zero)
        (_, _), (pt, _), (pl, _), _ = pads
        return dx[:, pt:pt + x.shape[1], pl:pl + x.shape[2], :]

    return kernel


def _avgpool_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray) -> np.ndarray:
        views, *_ = _pool_windows(x, attrs, 0.0)
        ones, *_ = _pool_windows(np.ones(x.shape[:3] + (1,), x.dtype), attrs, 0.0)
        total = sum(v for _, _, v in views)
        count = sum(v for _, _, v in ones)
        return (total / count).astype(x.dtype)

    return kernel


def _avgpool_grad_make(attrs: dict) -> Any:
    def kernel(x: np.ndarray, g: np.ndarray) -> np.ndarray:
        views, xp_shape, pads, sh, sw, oh, ow = _pool_windows(x, attrs, 0.0)
        ones, *_ = _pool_windows(np.ones(x.shape[:3] + (1,), x.dtype), attrs, 0.0)
        count = sum(v for _, _, v in ones)
        share = g / count
        dx = np.zeros(xp_shape, dtype=g.dtype)
        for i, j, _ in views:
            dx[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :] += share
        (_, _), (pt, _), (pl, _), _ = pads
        return dx[:, pt:pt + x.shape[1], pl:pl + x.shape[2], :]

    return kernel


register("MaxPool", _maxpool_make)
register("MaxPoolGrad", _maxpool_grad_make)
register("AvgPool", _avgpool_make)
register("AvgPoolGrad", _avgpool_grad_make)
not_differentiable("MaxPoolGrad")


@register_gradient("MaxPool")
def _maxpool_grad(op: Any, grad: Tensor) -> list:
    return [apply("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad], op.attrs)]


@register_gradient("AvgPool")
def _avgpool_grad(op: Any, grad: Tensor) -> list:
    return [apply("AvgPoolGrad", [op.inputs[0], grad], op.attrs)]


@register_gradient("AvgPoolGrad")
def _avgpool_grad_grad(op: Any, grad: Tensor) -> list:
    return [None, apply("AvgPool", [grad], op.attrs)]


def _pool(op_type: str, value: Any, ksize: Any, strides: Any, padding: str, name: str | None) -> Tensor:
    return apply(op_type, [convert_to_tensor(value)],
                 {"ksize": _norm2(ksize), "strides": _norm2(strides), "padding": padding.upper()}, name=name)


def max_pool(value: Any = None, ksize: Any = None, strides: Any = None, padding: str = "VALID",
             data_format: str = "NHWC", name: str | None = None, input: Any = None) -> Tensor:
    return _pool("MaxPool", value if value is not None else input, ksize, strides, padding, name)


def avg_pool(value: Any = None, ksize: Any = None, strides: Any = None, padding: str = "VALID",
             data_format: str = "NHWC", name: str | None = None, input: Any = None) -> Tensor:
    return _pool("AvgPool", value if value is not None else input, ksize, strides, padding, name)


# --- dropout ----------------------------------------------------------------------------------------


def dropout_rule(rate: Any, seed: Any) -> dict[str, Any] | None:
    """A dropout as ``verify`` compares it (``update_rules.build_rule``), when its rate is
    known as the program builds it; a fed or computed rate shows in the values instead."""
    if isinstance(rate, Tensor):
        return None
    return build_rule("dropout", rate=rate, seed=None if seed is None else str(seed))


def configured_dropout(rate: Any, seed: Any) -> None:
    """Tell the trace that the program built a dropout of this rate (``dropout_rule``)."""
    rule = dropout_rule(rate, seed)
    if rule is not None:
        trace.configured(rule)


def dropout_v2(x: Any, rate: Any, noise_shape: Any = None, seed: Any = None, name: str | None = None) -> Tensor:
    """TF2 ``tf.nn.dropout(x, rate)``: scale kept units by 1/(1-rate)."""
    configured_dropout(rate, seed)
    return apply_dropout(x, rate, noise_shape, seed, name)


def apply_dropout(x: Any, rate: Any, noise_shape: Any = None, seed: Any = None, name: str | None = None) -> Tensor:
    """Dropout itself, for the layers that tell the trace about it where they are built."""
    from runtime.ops.array import shape as shape_op
    from runtime.ops.random import random_uniform

    x = convert_to_tensor(x)
    if not isinstance(rate, Tensor) and float(rate) == 0.0:
        return x
    rate_t = convert_to_tensor(rate, dtype_hint=x.dtype)
    scale = m.truediv(1.0, m.subtract(1.0, rate_t))
    ret = m.multiply(x, scale)
    shp = shape_op(x) if noise_shape is None else noise_shape
    keep = m.greater_equal(random_uniform(shp, dtype=x.dtype, seed=seed), rate_t)
    out = m.multiply(ret, m.cast(keep, x.dtype), name=name)
    if hasattr(out, "set_shape"):
        out.set_shape(x.shape)
    return out


def dropout_v1(x: Any, keep_prob: Any = None, noise_shape: Any = None, seed: Any = None,
               name: str | None = None, rate: Any = None) -> Tensor:
    """TF1 ``tf.nn.dropout(x, keep_prob)``."""
    if rate is None:
        if keep_prob is None:
            raise ValueError("You must provide a rate to dropout.")
        rate = m.subtract(1.0, keep_prob) if isinstance(keep_prob, Tensor) else 1.0 - keep_prob
    return dropout_v2(x, rate, noise_shape, seed, name)


def relu_layer(x: Any, weights: Any, biases: Any, name: str | None = None) -> Tensor:
    return m.relu(bias_add(m.matmul(x, weights), biases), name=name)


def xw_plus_b(x: Any, weights: Any, biases: Any, name: str | None = None) -> Tensor:
    return bias_add(m.matmul(x, weights), biases, name=name)
