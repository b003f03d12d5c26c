"""Elementwise math, reductions, matmul and their gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import dtypes
from runtime.convert import binary_operands, convert_to_tensor
from runtime.errors import invalid_argument
from runtime.ops.registry import (
    apply,
    not_differentiable,
    register,
    register_gradient,
    register_simple,
)
from runtime.shapes import TensorShape
from runtime.tensor import OPS, EagerTensor, Tensor

# --- broadcasting helpers ------------------------------------------------------


_SUM_AXES: dict[tuple, tuple] = {}


def _sum_to_shape(g: np.ndarray, like: np.ndarray) -> np.ndarray:
    gs, ls = g.shape, like.shape
    if gs == ls:
        return g
    axes = _SUM_AXES.get((gs, ls))
    if axes is None:  # computed once per pair of shapes: this runs every training step
        nd = len(gs) - len(ls)
        axes = tuple(range(nd)) + tuple(i + nd for i, d in enumerate(ls) if d == 1 and gs[i + nd] != 1)
        _SUM_AXES[(gs, ls)] = axes
    out = np.add.reduce(g, axis=axes, keepdims=True) if axes else g
    return out.reshape(ls).astype(g.dtype, copy=False)


register_simple("SumToShape", _sum_to_shape)
def _broadcast_like(g: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``g`` broadcast to ``like``'s shape as a fresh array (copyto skips broadcast_to's Python)."""
    out = np.empty(like.shape, g.dtype)
    np.copyto(out, g)
    return out


register_simple("BroadcastLike", _broadcast_like)


@register_gradient("SumToShape")
def _sum_to_shape_grad(op: Any, grad: Tensor) -> list:
    return [broadcast_like(grad, op.inputs[0]), None]


@register_gradient("BroadcastLike")
def _broadcast_like_grad(op: Any, grad: Tensor) -> list:
    return [sum_to_shape(grad, op.inputs[0]), None]


def _same_static_shape(a: Tensor, b: Tensor) -> bool:
    sa, sb = a.shape, b.shape
    return sa.is_fully_defined() and sa == sb


def sum_to_shape(g: Tensor, like: Tensor) -> Tensor:
    """Reduce a broadcast gradient back to the shape of ``like``."""
    if _same_static_shape(g, like):
        return g
    return apply("SumToShape", [g, like])


def broadcast_like(g: Tensor, like: Tensor) -> Tensor:
    if _same_static_shape(g, like):
        return g
    return apply("BroadcastLike", [g, like])


# --- binary ops ----------------------------------------------------------------


def _binary(op_type: str, x: Any, y: Any, name: str | None) -> Tensor:
    x, y = binary_operands(op_type, x, y)
    return apply(op_type, [x, y], name=name)


def _boolean(inputs: list) -> dtypes.DType:
    return dtypes.bool_


def _reg_binary(op_type: str, fn: Any, differentiable: bool = True, dtype_fn: Any = None) -> None:
    register_simple(op_type, fn, dtype_fn=dtype_fn)
    if not differentiable:
        not_differentiable(op_type)


def _true_divide_same(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.true_divide(x, y).astype(x.dtype, copy=False)


def _floordiv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.floor_divide(x, y)


_reg_binary("AddV2", np.add)
_reg_binary("Sub", np.subtract)
_reg_binary("Mul", np.multiply)
_reg_binary("RealDiv", _true_divide_same)
_reg_binary("FloorDiv", _floordiv, differentiable=False)
_reg_binary("FloorMod", np.mod)
_reg_binary("Pow", lambda x, y: np.power(x, y))
_reg_binary("Maximum", np.maximum)
_reg_binary("Minimum", np.minimum)
_reg_binary("SquaredDifference", lambda x, y: np.square(x - y))
for _n, _f in [("Equal", np.equal), ("NotEqual", np.not_equal), ("Less", np.less),
               ("LessEqual", np.less_equal), ("Greater", np.greater),
               ("GreaterEqual", np.greater_equal), ("LogicalAnd", np.logical_and),
               ("LogicalOr", np.logical_or)]:
    _reg_binary(_n, _f, differentiable=False, dtype_fn=_boolean)


def add(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("AddV2", x, y, name or "Add")


def subtract(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Sub", x, y, name)


def multiply(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Mul", x, y, name)


def truediv(x: Any, y: Any, name: str | None = None) -> Tensor:
    x, y = binary_operands("RealDiv", x, y)
    if x.dtype.is_integer:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return apply("RealDiv", [x, y], name=name or "truediv")


def divide(x: Any, y: Any, name: str | None = None) -> Tensor:
    return truediv(x, y, name)


def div(x: Any, y: Any, name: str | None = None) -> Tensor:
    x, y = binary_operands("RealDiv", x, y)
    if x.dtype.is_integer:
        return apply("FloorDiv", [x, y], name=name)
    return apply("RealDiv", [x, y], name=name)


def floordiv(x: Any, y: Any, name: str | None = None) -> Tensor:
    x, y = binary_operands("FloorDiv", x, y)
    if x.dtype.is_floating:
        return floor(apply("RealDiv", [x, y]), name=name)
    return apply("FloorDiv", [x, y], name=name)


def floormod(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("FloorMod", x, y, name)


def pow(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Pow", x, y, name)


def maximum(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Maximum", x, y, name)


def minimum(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Minimum", x, y, name)


def squared_difference(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("SquaredDifference", x, y, name)


def equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Equal", x, y, name)


def not_equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("NotEqual", x, y, name)


def less(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Less", x, y, name)


def less_equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("LessEqual", x, y, name)


def greater(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("Greater", x, y, name)


def greater_equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("GreaterEqual", x, y, name)


def logical_and(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("LogicalAnd", x, y, name)


def logical_or(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _binary("LogicalOr", x, y, name)


@register_gradient("AddV2")
def _add_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    return [sum_to_shape(grad, x), sum_to_shape(grad, y)]


@register_gradient("Sub")
def _sub_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    return [sum_to_shape(grad, x), sum_to_shape(negative(grad), y)]


@register_gradient("Mul")
def _mul_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    return [sum_to_shape(multiply(grad, y), x), sum_to_shape(multiply(x, grad), y)]


@register_gradient("RealDiv")
def _div_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    gx = truediv(grad, y)
    gy = multiply(grad, truediv(truediv(negative(x), y), y))
    return [sum_to_shape(gx, x), sum_to_shape(gy, y)]


@register_gradient("Pow")
def _pow_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    z = op.outputs[0]
    gx = multiply(grad, multiply(y, pow(x, subtract(y, 1))))
    safe_x = where(greater(x, 0), x, ones_like(x))
    log_x = where(greater(x, 0), log(safe_x), zeros_like(x))
    gy = multiply(grad, multiply(z, log_x))
    return [sum_to_shape(gx, x), sum_to_shape(gy, y)]


def _minmax_grad(op: Any, grad: Tensor, cmp: Any) -> list:
    x, y = op.inputs
    mask = cmp(x, y)
    zeros = zeros_like(grad)
    gx = where(mask, grad, zeros)
    gy = where(mask, zeros, grad)
    return [sum_to_shape(gx, x), sum_to_shape(gy, y)]


@register_gradient("Maximum")
def _max_grad(op: Any, grad: Tensor) -> list:
    return _minmax_grad(op, grad, greater_equal)


@register_gradient("Minimum")
def _min_grad(op: Any, grad: Tensor) -> list:
    return _minmax_grad(op, grad, less_equal)


@register_gradient("SquaredDifference")
def _sqdiff_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    g = multiply(multiply(grad, 2.0), subtract(x, y)) if grad.dtype.is_floating else grad
    return [sum_to_shape(g, x), sum_to_shape(negative(g), y)]


@register_gradient("FloorMod")
def _floormod_grad(op: Any, grad: Tensor) -> list:
    x, y = op.inputs
    return [sum_to_shape(grad, x), sum_to_shape(multiply(grad, negative(floordiv(x, y))), y)]


# --- unary ops -------------------------------------------------------------------


def _unary(op_type: str, x: Any, name: str | None = None) -> Tensor:
    return apply(op_type, [convert_to_tensor(x)], name=name)


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return (1 / np.sqrt(x)).astype(x.dtype, copy=False)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(np.zeros((), x.dtype), x)


def _elu(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))


def _selu(x: np.ndarray) -> np.ndarray:
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return (scale * np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))).astype(x.dtype)


_UNARY = {
    "Neg": np.negative, "Abs": np.abs, "Sign": np.sign, "Square": np.square, "Sqrt": np.sqrt,
    "Rsqrt": _rsqrt, "Exp": np.exp, "Log": np.log, "Log1p": np.log1p, "Expm1": np.expm1,
    "Sigmoid": _sigmoid, "Tanh": np.tanh, "Reciprocal": lambda x: (1 / x).astype(x.dtype),
    "Sin": np.sin, "Cos": np.cos, "Tan": np.tan, "Floor": np.floor, "Ceil": np.ceil,
    "Round": np.round, "Rint": np.rint, "LogicalNot": np.logical_not, "IsNan": np.isnan,
    "IsFinite": np.isfinite, "IsInf": np.isinf, "Softplus": _softplus,
    "Relu": lambda x: np.maximum(x, np.zeros((), x.dtype)),
    "Relu6": lambda x: np.minimum(np.maximum(x, np.zeros((), x.dtype)), np.asarray(6, x.dtype)),
    "Elu": _elu, "Selu": _selu, "Softsign": lambda x: x / (1 + np.abs(x)),
    "Identity": lambda x: x, "StopGradient": lambda x: x,
}
for _n, _f in _UNARY.items():
    register_simple(_n, _f, dtype_fn=_boolean if _n in ("LogicalNot", "IsNan", "IsFinite", "IsInf") else None)
not_differentiable("Sign", "Floor", "Ceil", "Round", "Rint", "LogicalNot", "IsNan", "IsFinite",
                   "IsInf", "StopGradient")


def negative(x: Any, name: str | None = None) -> Tensor:
    return _unary("Neg", x, name)


def abs(x: Any, name: str | None = None) -> Tensor:
    return _unary("Abs", x, name)


def sign(x: Any, name: str | None = None) -> Tensor:
    return _unary("Sign", x, name)


def square(x: Any, name: str | None = None) -> Tensor:
    return _unary("Square", x, name)


def sqrt(x: Any, name: str | None = None) -> Tensor:
    return _unary("Sqrt", x, name)


def rsqrt(x: Any, name: str | None = None) -> Tensor:
    return _unary("Rsqrt", x, name)


def exp(x: Any, name: str | None = None) -> Tensor:
    return _unary("Exp", x, name)


def log(x: Any, name: str | None = None) -> Tensor:
    return _unary("Log", x, name)


def log1p(x: Any, name: str | None = None) -> Tensor:
    return _unary("Log1p", x, name)


def expm1(x: Any, name: str | None = None) -> Tensor:
    return _unary("Expm1", x, name)


def sigmoid(x: Any, name: str | None = None) -> Tensor:
    return _unary("Sigmoid", x, name)


def tanh(x: Any, name: str | None = None) -> Tensor:
    return _unary("Tanh", x, name)


def reciprocal(x: Any, name: str | None = None) -> Tensor:
    return _unary("Reciprocal", x, name)


def sin(x: Any, name: str | None = None) -> Tensor:
    return _unary("Sin", x, name)


def cos(x: Any, name: str | None = None) -> Tensor:
    return _unary("Cos", x, name)


def tan(x: Any, name: str | None = None) -> Tensor:
    return _unary("Tan", x, name)


def floor(x: Any, name: str | None = None) -> Tensor:
    return _unary("Floor", x, name)


def ceil(x: Any, name: str | None = None) -> Tensor:
    return _unary("Ceil", x, name)


def round(x: Any, name: str | None = None) -> Tensor:
    return _unary("Rint", x, name)


def logical_not(x: Any, name: str | None = None) -> Tensor:
    return _unary("LogicalNot", x, name)


def is_nan(x: Any, name: str | None = None) -> Tensor:
    return _unary("IsNan", x, name)


def is_finite(x: Any, name: str | None = None) -> Tensor:
    return _unary("IsFinite", x, name)


def is_inf(x: Any, name: str | None = None) -> Tensor:
    return _unary("IsInf", x, name)


def softplus(x: Any, name: str | None = None) -> Tensor:
    return _unary("Softplus", x, name)


def softsign(x: Any, name: str | None = None) -> Tensor:
    return _unary("Softsign", x, name)


def relu(x: Any, name: str | None = None) -> Tensor:
    return _unary("Relu", x, name)


def relu6(x: Any, name: str | None = None) -> Tensor:
    return _unary("Relu6", x, name)


def elu(x: Any, name: str | None = None) -> Tensor:
    return _unary("Elu", x, name)


def selu(x: Any, name: str | None = None) -> Tensor:
    return _unary("Selu", x, name)


def identity(x: Any, name: str | None = None) -> Tensor:
    return _unary("Identity", x, name)


def stop_gradient(x: Any, name: str | None = None) -> Tensor:
    return _unary("StopGradient", x, name)


def leaky_relu(features: Any, alpha: float = 0.2, name: str | None = None) -> Tensor:
    x = convert_to_tensor(features)
    return maximum(x, multiply(x, alpha), name=name)


register_gradient("Neg")(lambda op, g: [negative(g)])
register_gradient("Identity")(lambda op, g: [g])
register_gradient("Abs")(lambda op, g: [multiply(g, sign(op.inputs[0]))])
register_gradient("Exp")(lambda op, g: [multiply(g, op.outputs[0])])
register_gradient("Log")(lambda op, g: [multiply(g, reciprocal(op.inputs[0]))])
register_gradient("Log1p")(lambda op, g: [multiply(g, reciprocal(add(op.inputs[0], 1.0)))])
register_gradient("Expm1")(lambda op, g: [multiply(g, exp(op.inputs[0]))])
register_gradient("Sin")(lambda op, g: [multiply(g, cos(op.inputs[0]))])
register_gradient("Cos")(lambda op, g: [multiply(g, negative(sin(op.inputs[0])))])
register_gradient("Tan")(lambda op, g: [multiply(g, add(square(op.outputs[0]), 1.0))])


@register_gradient("Square")
def _square_grad(op: Any, grad: Tensor) -> list:
    x = op.inputs[0]
    return [multiply(grad, multiply(x, convert_to_tensor(2.0, dtype=x.dtype)))]


@register_gradient("Sqrt")
def _sqrt_grad(op: Any, grad: Tensor) -> list:
    return [truediv(multiply(grad, 0.5), op.outputs[0])]


@register_gradient("Rsqrt")
def _rsqrt_grad(op: Any, grad: Tensor) -> list:
    y = op.outputs[0]
    return [multiply(multiply(grad, -0.5), multiply(square(y), y))]


@register_gradient("Reciprocal")
def _reciprocal_grad(op: Any, grad: Tensor) -> list:
    y = op.outputs[0]
    return [multiply(grad, negative(square(y)))]


@register_gradient("Sigmoid")
def _sigmoid_grad(op: Any, grad: Tensor) -> list:
    y = op.outputs[0]
    return [multiply(grad, multiply(y, subtract(1.0, y)))]


@register_gradient("Tanh")
def _tanh_grad(op: Any, grad: Tensor) -> list:
    y = op.outputs[0]
    return [multiply(grad, subtract(1.0, square(y)))]


@register_gradient("Softplus")
def _softplus_grad(op: Any, grad: Tensor) -> list:
    return [multiply(grad, sigmoid(op.inputs[0]))]


@register_gradient("Softsign")
def _softsign_grad(op: Any, grad: Tensor) -> list:
    return [truediv(grad, square(add(1.0, abs(op.inputs[0]))))]


def _relu_grad_kernel(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    # TF's ReluGrad multiplies by the mask: a dead unit passes -0.0 or NaN on, not 0.
    return np.multiply(grad, y > 0)


register_simple("ReluGrad", _relu_grad_kernel)


@register_gradient("Relu")
def _relu_grad(op: Any, grad: Tensor) -> list:
    return [apply("ReluGrad", [grad, op.outputs[0]])]


@register_gradient("ReluGrad")
def _relu_grad_grad(op: Any, grad: Tensor) -> list:
    return [apply("ReluGrad", [grad, op.inputs[1]]), None]


@register_gradient("Relu6")
def _relu6_grad(op: Any, grad: Tensor) -> list:
    x = op.inputs[0]
    return [where(logical_and(greater(x, 0), less(x, 6)), grad, zeros_like(grad))]


@register_gradient("Elu")
def _elu_grad(op: Any, grad: Tensor) -> list:
    y = op.outputs[0]
    return [where(greater(y, 0), grad, multiply(grad, add(y, 1.0)))]


@register_gradient("Selu")
def _selu_grad(op: Any, grad: Tensor) -> list:
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    y = op.outputs[0]
    return [where(greater(y, 0), multiply(grad, scale), multiply(grad, add(y, scale * alpha)))]


# --- cast, add_n, where --------------------------------------------------------------


def _cast_make(attrs: dict) -> Any:
    target = attrs["DstT"].np
    return lambda x: x.astype(target)


register("Cast", _cast_make)


@register_gradient("Cast")
def _cast_grad(op: Any, grad: Tensor) -> list:
    src = op.inputs[0].dtype
    if src.is_floating or src.is_complex:
        return [cast(grad, src)]
    return [None]


def cast(x: Any, dtype: Any, name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    x = convert_to_tensor(x, dtype_hint=dt) if not isinstance(x, Tensor) else x
    if x.dtype == dt:
        return x
    return apply("Cast", [x], {"DstT": dt}, name=name)


def _add_n(*xs: np.ndarray) -> np.ndarray:
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


register_simple("AddN", _add_n)


@register_gradient("AddN")
def _add_n_grad(op: Any, grad: Tensor) -> list:
    return [grad] * len(op.inputs)


def add_n(inputs: list, name: str | None = None) -> Tensor:
    ts = [convert_to_tensor(x) for x in inputs]
    if len(ts) == 1:
        return ts[0]
    shape = ts[0].shape
    for t in ts[1:]:
        if not shape.is_compatible_with(t.shape):  # AddN does not broadcast
            raise ValueError(f"Shapes must be equal rank, but are {shape.rank} and {t.shape.rank}"
                             if shape.rank != t.shape.rank else f"Dimensions must be equal: {shape} vs {t.shape}")
        shape = shape.merge_with(t.shape)
    return apply("AddN", ts, name=name)


register_simple("SelectV2", lambda c, x, y: np.where(c, x, y), dtype_fn=lambda inputs: inputs[1].dtype)


@register_gradient("SelectV2")
def _select_grad(op: Any, grad: Tensor) -> list:
    c, x, y = op.inputs
    zeros = zeros_like(grad)
    return [None, sum_to_shape(where(c, grad, zeros), x), sum_to_shape(where(c, zeros, grad), y)]


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    c = convert_to_tensor(condition)
    if x is None and y is None:
        return apply("Where", [c], name=name)
    x, y = binary_operands("SelectV2", x, y)
    return apply("SelectV2", [c, x, y], name=name)


register_simple("Where", lambda c: np.argwhere(c).astype(np.int64),
                # the row count depends on values: probing placeholder stand-ins would fix it at 0
                shape_fn=lambda inputs, attrs: [(TensorShape([None, inputs[0].shape.rank]), dtypes.int64)])
not_differentiable("Where")


# --- reductions ------------------------------------------------------------------


def _axes(axis: Any, ndim: int) -> tuple | None:
    if axis is None:
        return None
    if isinstance(axis, (list, tuple, np.ndarray)):
        return tuple(int(a) % ndim if ndim else int(a) for a in np.asarray(axis).ravel())
    return (int(axis) % ndim if ndim else int(axis),)


def _reduce_make(fn: Any) -> Any:
    def make(attrs: dict) -> Any:
        axis, keep = attrs["axis"], attrs["keepdims"]
        # np.sum/np.max/np.min are these ufunc reductions behind a Python wrapper.
        reduce = _UFUNC_REDUCE.get(fn, fn)

        def kernel(x: np.ndarray) -> np.ndarray:
            out = reduce(x, axis=None if axis is None else _axes(axis, x.ndim), keepdims=keep)
            return np.asarray(out, dtype=x.dtype) if x.dtype.kind != "b" else np.asarray(out)

        return kernel

    return make


def _mean(x: np.ndarray, axis: Any, keepdims: bool) -> np.ndarray:
    if x.dtype.kind in "iu":
        s = np.sum(x, axis=axis, keepdims=keepdims)
        n = x.size // max(np.asarray(s).size, 1) if x.size else 1
        return np.asarray(s // n if n else s, dtype=x.dtype)
    if x.dtype.kind not in "fc":
        return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    # np.mean(x, axis, dtype=x.dtype) without its dispatch layers: the same sum, divided by the
    # count as an intp the same way (in place for an array, through Python division for a scalar).
    total = np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
    n = 1
    for d in x.shape if axis is None else (x.shape[a] for a in axis):
        n *= d
    count = np.intp(n)
    if total.__class__ is np.ndarray:
        return np.true_divide(total, count, out=total, casting="unsafe", subok=False)
    return total.dtype.type(total / count)


_UFUNC_REDUCE = {np.sum: np.add.reduce, np.max: np.maximum.reduce, np.min: np.minimum.reduce}
for _n, _f in [("Sum", np.sum), ("Mean", _mean), ("Max", np.max), ("Min", np.min),
               ("Prod", np.prod), ("All", np.all), ("Any", np.any)]:
    register(_n, _reduce_make(_f))
not_differentiable("All", "Any")


def _resolve_axis(axis: Any) -> Any:
    if isinstance(axis, Tensor):
        from runtime.graph import constant_value

        v = constant_value(axis)
        if v is None:
            from runtime.errors import Unsupported

            raise Unsupported("reduction over a non-constant axis tensor")
        return v.tolist()
    if isinstance(axis, np.ndarray):
        return axis.tolist()
    return axis


def _reduce(op_type: str, x: Any, axis: Any, keepdims: Any, name: str | None,
            keep_dims: Any = None) -> Tensor:
    x = convert_to_tensor(x)
    keep = bool(keepdims if keep_dims is None else keep_dims)
    if op_type in ("Sum", "Mean", "Prod") and x.dtype.is_bool:
        x = cast(x, dtypes.int32)
    return apply(op_type, [x], {"axis": _resolve_axis(axis), "keepdims": keep}, name=name)


def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
    return _reduce("Sum", input_tensor, axis if axis is not None else reduction_indices, keepdims, name, keep_dims)


def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None,
                reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
    return _reduce("Mean", input_tensor, axis if axis is not None else reduction_indices, keepdims, name, keep_dims)


def reduce_max(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
    return _reduce("Max", input_tensor, axis if axis is not None else reduction_indices, keepdims, name, keep_dims)


def reduce_min(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
    return _reduce("Min", input_tensor, axis if axis is not None else reduction_indices, keepdims, name, keep_dims)


def reduce_prod(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None,
                reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
    return _reduce("Prod", input_tensor, axis if axis is not None else reduction_indices, keepdims, name, keep_dims)


def reduce_all(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None) -> Tensor:
    return _reduce("All", input_tensor, axis, keepdims, name)


def reduce_any(input_tensor: Any, axis: Any = None, keepdims: Any = False, name: str | None = None) -> Tensor:
    return _reduce("Any", input_tensor, axis, keepdims, name)


def reduce_logsumexp(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                     name: str | None = None) -> Tensor:
    x = convert_to_tensor(input_tensor)
    m = stop_gradient(reduce_max(x, axis, keepdims=True))
    out = add(log(reduce_sum(exp(subtract(x, m)), axis, keepdims=True)), m)
    if not keepdims:
        from runtime.ops.array import squeeze_axes

        out = squeeze_axes(out, axis)
    return out


def _keep_shape_grad(op: Any, grad: Tensor) -> Tensor:
    """The upstream gradient reshaped to keepdims form (TF's Sum gradient then tiles it)."""
    if op.attrs["keepdims"]:
        return grad
    return apply("ExpandReduced", [grad, op.inputs[0]], {"axis": op.attrs["axis"]})


def _expand_reduced_make(attrs: dict) -> Any:
    axis = attrs["axis"]

    shapes: dict[tuple, list] = {}

    def kernel(g: np.ndarray, x: np.ndarray) -> np.ndarray:
        shape = shapes.get(x.shape)
        if shape is None:
            axes = _axes(axis, x.ndim)
            shape = shapes[x.shape] = [1 if (axes is None or i in axes) else d for i, d in enumerate(x.shape)]
        return g.reshape(shape)

    return kernel


register("ExpandReduced", _expand_reduced_make)


@register_gradient("ExpandReduced")
def _expand_reduced_grad(op: Any, grad: Tensor) -> list:
    from runtime.ops.array import reshape, shape

    return [reshape(grad, shape(op.inputs[0])), None]


@register_gradient("Sum")
def _sum_grad(op: Any, grad: Tensor) -> list:
    return [broadcast_like(_keep_shape_grad(op, grad), op.inputs[0])]


register_simple("ReducedCount", lambda x, y: np.asarray(max(x.size, 1) // max(y.size, 1)))
not_differentiable("ReducedCount")


@register_gradient("Mean")
def _mean_grad(op: Any, grad: Tensor) -> list:
    g = broadcast_like(_keep_shape_grad(op, grad), op.inputs[0])
    x, y = op.inputs[0], op.outputs[0]
    if x.shape.is_fully_defined() and y.shape.is_fully_defined():
        factor = max(x.shape.num_elements(), 1) // max(y.shape.num_elements(), 1)  # type: ignore[operator]
        return [truediv(g, convert_to_tensor(factor, dtype=g.dtype))]
    return [truediv(g, cast(apply("ReducedCount", [x, y]), g.dtype))]


def _minmax_reduce_grad(op: Any, grad: Tensor) -> list:
    x = op.inputs[0]
    y = apply("ExpandReduced", [op.outputs[0], x], {"axis": op.attrs["axis"]}) if not op.attrs["keepdims"] else op.outputs[0]
    g = _keep_shape_grad(op, grad)
    eq = cast(equal(x, y), grad.dtype)
    num_sel = reduce_sum(eq, op.attrs["axis"], keepdims=True)
    return [multiply(truediv(eq, num_sel), g)]


register_gradient("Max")(_minmax_reduce_grad)
register_gradient("Min")(_minmax_reduce_grad)


@register_gradient("Prod")
def _prod_grad(op: Any, grad: Tensor) -> list:
    x = op.inputs[0]
    g = broadcast_like(_keep_shape_grad(op, grad), x)
    y = op.outputs[0]
    yk = apply("ExpandReduced", [y, x], {"axis": op.attrs["axis"]}) if not op.attrs["keepdims"] else y
    return [multiply(g, truediv(yk, x))]


def _arg_make(fn: Any) -> Any:
    def make(attrs: dict) -> Any:
        axis, out = attrs["axis"], attrs["out_dtype"].np
        return lambda x: np.asarray(fn(x, axis=axis), dtype=out)

    return make


register("ArgMax", _arg_make(np.argmax))
register("ArgMin", _arg_make(np.argmin))
not_differentiable("ArgMax", "ArgMin")


def argmax(input: Any, axis: Any = None, name: str | None = None, dimension: Any = None,
           output_type: Any = dtypes.int64) -> Tensor:
    ax = axis if axis is not None else (dimension if dimension is not None else 0)
    return apply("ArgMax", [convert_to_tensor(input)],
                 {"axis": int(_resolve_axis(ax)), "out_dtype": dtypes.as_dtype(output_type)}, name=name)


def argmin(input: Any, axis: Any = None, name: str | None = None, dimension: Any = None,
           output_type: Any = dtypes.int64) -> Tensor:
    ax = axis if axis is not None else (dimension if dimension is not None else 0)
    return apply("ArgMin", [convert_to_tensor(input)],
                 {"axis": int(_resolve_axis(ax)), "out_dtype": dtypes.as_dtype(output_type)}, name=name)


# --- matmul ----------------------------------------------------------------------------


def _matmul_make(attrs: dict) -> Any:
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]

    def kernel(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if ta:
            a = np.swapaxes(a, -1, -2)
        if tb:
            b = np.swapaxes(b, -1, -2)
        if a.ndim == 2 == b.ndim and a.shape[1] != b.shape[0]:
            shown = [",".join(map(str, s)) for s in (a.shape[::-1] if ta else a.shape,
                                                    b.shape[::-1] if tb else b.shape)]
            raise invalid_argument(f"Matrix size-incompatible: In[0]: [{shown[0]}], In[1]: [{shown[1]}] [Op:MatMul]")
        return np.matmul(a, b)

    return kernel


register("MatMul", _matmul_make)


@register_gradient("MatMul")
def _matmul_grad(op: Any, grad: Tensor) -> list:
    a, b = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]
    if not ta and not tb:
        ga, gb = matmul(grad, b, transpose_b=True), matmul(a, grad, transpose_a=True)
    elif not ta and tb:
        ga, gb = matmul(grad, b), matmul(grad, a, transpose_a=True)
    elif ta and not tb:
        ga, gb = matmul(b, grad, transpose_b=True), matmul(a, grad)
    else:
        ga, gb = matmul(b, grad, transpose_a=True, transpose_b=True), matmul(grad, a, transpose_a=True, transpose_b=True)
    if a.shape.rank is not None and b.shape.rank is not None and a.shape.rank != b.shape.rank:
        ga, gb = sum_to_shape(ga, a), sum_to_shape(gb, b)
    return [ga, gb]


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False,
           adjoint_a: bool = False, adjoint_b: bool = False, name: str | None = None, **_: Any) -> Tensor:
    a, b = binary_operands("MatMul", a, b)
    return apply("MatMul", [a, b], {"transpose_a": transpose_a or adjoint_a,
                                    "transpose_b": transpose_b or adjoint_b}, name=name)


# --- misc ---------------------------------------------------------------------------------


def _cumsum_make(attrs: dict) -> Any:
    axis, exclusive, reverse = attrs["axis"], attrs["exclusive"], attrs["reverse"]

    def kernel(x: np.ndarray) -> np.ndarray:
        y = np.flip(x, axis) if reverse else x
        out = np.cumsum(y, axis=axis, dtype=x.dtype)
        if exclusive:
            out = np.concatenate([np.zeros_like(np.take(out, [0], axis=axis)),
                                  np.delete(out, -1, axis=axis)], axis=axis)
        return np.flip(out, axis) if reverse else out

    return kernel


register("Cumsum", _cumsum_make)


@register_gradient("Cumsum")
def _cumsum_grad(op: Any, grad: Tensor) -> list:
    a = op.attrs
    return [cumsum(grad, a["axis"], exclusive=a["exclusive"], reverse=not a["reverse"])]


def cumsum(x: Any, axis: int = 0, exclusive: bool = False, reverse: bool = False,
           name: str | None = None) -> Tensor:
    return apply("Cumsum", [convert_to_tensor(x)],
                 {"axis": int(_resolve_axis(axis)), "exclusive": exclusive, "reverse": reverse}, name=name)


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Tensor:
    t = convert_to_tensor(t)
    return maximum(minimum(t, clip_value_max), clip_value_min, name=name)


def l2_loss(t: Any, name: str | None = None) -> Tensor:
    t = convert_to_tensor(t)
    return multiply(reduce_sum(square(t)), convert_to_tensor(0.5, dtype=t.dtype), name=name)


def global_norm(t_list: list, name: str | None = None) -> Tensor:
    ts = [convert_to_tensor(t) for t in t_list if t is not None]
    return sqrt(add_n([multiply(l2_loss(t), 2.0) for t in ts]), name=name)


def clip_by_global_norm(t_list: list, clip_norm: Any, use_norm: Any = None,
                        name: str | None = None) -> tuple[list, Tensor]:
    norm = use_norm if use_norm is not None else global_norm(t_list)
    clip = convert_to_tensor(clip_norm, dtype_hint=norm.dtype)
    scale = multiply(clip, minimum(truediv(1.0, norm), truediv(1.0, clip)))
    out = [None if t is None else multiply(convert_to_tensor(t), cast(scale, convert_to_tensor(t).dtype)) for t in t_list]
    return out, norm


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Tensor:
    t = convert_to_tensor(t)
    l2sum = reduce_sum(square(t), axes, keepdims=True)
    norm = sqrt(l2sum)
    return truediv(multiply(t, clip_norm), maximum(norm, clip_norm), name=name)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    from runtime.ops.array import zeros_like as _zl

    return _zl(x, dtype, name)


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    from runtime.ops.array import ones_like as _ol

    return _ol(x, dtype, name)


def scalar_mul(scalar: Any, x: Any, name: str | None = None) -> Tensor:
    return multiply(scalar, x, name=name)


def count_nonzero(x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = dtypes.int64,
                  name: str | None = None) -> Tensor:
    x = convert_to_tensor(x)
    nz = cast(not_equal(x, zeros_like(x)), dtype)
    return reduce_sum(nz, axis, keepdims=keepdims, name=name)


OPS.update({
    "add": add, "subtract": subtract, "multiply": multiply, "truediv": truediv,
    "floordiv": floordiv, "floormod": floormod, "pow": pow, "matmul": matmul,
    "negative": negative, "abs": abs, "logical_not": logical_not, "logical_and": logical_and,
    "logical_or": logical_or, "less": less, "less_equal": less_equal, "greater": greater,
    "greater_equal": greater_equal, "equal": equal, "not_equal": not_equal, "identity": identity,
    "cast": cast, "sum_to_shape": sum_to_shape,
})

__all__ = ["EagerTensor", "TensorShape"]
