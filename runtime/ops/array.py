"""Array ops: constants, placeholders, shapes, reshaping, slicing, gathering, and their gradients."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import constant, convert_to_tensor
from runtime.errors import Unsupported, invalid_argument
from runtime.ops.registry import (
    apply,
    not_differentiable,
    register,
    register_gradient,
    register_simple,
)
from runtime.shapes import TensorShape, dims_text
from runtime.tensor import OPS, EagerTensor, SymbolicTensor, Tensor

# --- constants and placeholders ------------------------------------------------------------

register("Const", lambda attrs: (lambda: attrs["value"]))


def constant_in_graph(graph: Any, value: np.ndarray, dtype: dtypes.DType, name: str) -> SymbolicTensor:
    from runtime.ops.registry import REGISTRY

    value = np.asarray(value, dtype=dtype.np) if dtype != dtypes.string else np.asarray(value, dtype=object)
    return graph.create_op(REGISTRY["Const"], [], {"value": value, "dtype": dtype}, name).outputs[0]


def _placeholder_make(attrs: dict) -> Any:
    def kernel() -> np.ndarray:
        shape = attrs["shape"]
        dims = "<unknown>" if shape.rank is None else dims_text(shape)
        raise invalid_argument(
            f"You must feed a value for placeholder tensor '{attrs['name']}' with dtype "
            f"{attrs['dtype'].name} and shape {dims}")

    return kernel


register("Placeholder", _placeholder_make,
         shape_fn=lambda inputs, attrs: [(attrs["shape"], attrs["dtype"])], stateful=True)


def placeholder(dtype: Any = dtypes.float32, shape: Any = None, name: str | None = None) -> SymbolicTensor:
    """``tf.compat.v1.placeholder``: a graph input that must be fed."""
    if context.executing_eagerly():
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    graph = context.get_default_graph()
    from runtime.ops.registry import REGISTRY

    dt = dtypes.as_dtype(dtype)
    shp = TensorShape(shape)
    attrs: dict = {"dtype": dt, "shape": shp}
    op = graph.create_op(REGISTRY["Placeholder"], [], attrs, name or "Placeholder")
    attrs["name"] = op.name
    return op.outputs[0]


register_simple("PlaceholderWithDefault", lambda x: x)
register_gradient("PlaceholderWithDefault")(lambda op, g: [g])


def placeholder_with_default(input: Any, shape: Any, name: str | None = None) -> Tensor:
    t = apply("PlaceholderWithDefault", [convert_to_tensor(input)], name=name)
    if isinstance(t, SymbolicTensor):
        t._shape = TensorShape(shape)
        t._exact = False
    return t


# --- shapes -----------------------------------------------------------------------------------


def _shape_make(attrs: dict) -> Any:
    out = attrs["out_type"].np
    return lambda x: np.asarray(x.shape, dtype=out)


register("Shape", _shape_make, shape_only=True)
register("Size", lambda attrs: (lambda x: np.asarray(x.size, dtype=attrs["out_type"].np)), shape_only=True)
register_simple("Rank", lambda x: np.asarray(x.ndim, dtype=np.int32), shape_only=True)
not_differentiable("Shape", "Size", "Rank")


def shape(input: Any, out_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    return apply("Shape", [convert_to_tensor(input)], {"out_type": dtypes.as_dtype(out_type)}, name=name)


def size(input: Any, out_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    return apply("Size", [convert_to_tensor(input)], {"out_type": dtypes.as_dtype(out_type)}, name=name)


def rank(input: Any, name: str | None = None) -> Tensor:
    return apply("Rank", [convert_to_tensor(input)], name=name)


def _shape_arg(s: Any) -> Tensor:
    if isinstance(s, TensorShape):
        s = s.as_list()
    return convert_to_tensor(s, dtype_hint=dtypes.int32)


# --- fill / zeros / ones ----------------------------------------------------------------------


register_simple("Fill", lambda dims, v: np.full(tuple(int(d) for d in dims), v, dtype=v.dtype))
not_differentiable("Fill")
register_simple("ZerosLike", np.zeros_like, shape_only=True)
register_simple("OnesLike", lambda x: np.ones(x.shape, x.dtype), shape_only=True)
not_differentiable("ZerosLike", "OnesLike")


def fill(dims: Any, value: Any, name: str | None = None) -> Tensor:
    return apply("Fill", [_shape_arg(dims), convert_to_tensor(value)], name=name)


def _static_dims(shape_: Any) -> list[int] | None:
    if isinstance(shape_, TensorShape):
        return shape_.as_list() if shape_.is_fully_defined() else None
    if isinstance(shape_, Tensor):
        from runtime.graph import constant_value

        v = constant_value(shape_)
        return None if v is None else [int(d) for d in np.asarray(v).ravel()]
    if isinstance(shape_, (int, np.integer)):
        return [int(shape_)]
    if isinstance(shape_, (list, tuple)) and all(isinstance(d, (int, np.integer)) for d in shape_):
        return [int(d) for d in shape_]
    if isinstance(shape_, (list, tuple)):
        vals = []
        for d in shape_:
            sd = _static_dims([d]) if not isinstance(d, Tensor) else _static_dims(d)
            if sd is None:
                return None
            vals.extend(sd)
        return vals
    return None


def _filled(shape_: Any, value: int, dtype: Any, name: str) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    dims = _static_dims(shape_)
    if dims is not None:
        arr = np.full(dims, value, dtype=dt.np)
        if context.executing_eagerly():
            return EagerTensor(arr, dt)
        return constant_in_graph(context.get_default_graph(), arr, dt, name)
    return fill(shape_, constant(value, dt), name=name)


def zeros(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    return _filled(shape, 0, dtype, name or "zeros")


def ones(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    return _filled(shape, 1, dtype, name or "ones")


def zeros_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    out = apply("ZerosLike", [x], name=name)
    return out if dtype is None else OPS["cast"](out, dtype)


def ones_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    out = apply("OnesLike", [x], name=name)
    return out if dtype is None else OPS["cast"](out, dtype)


# --- range -------------------------------------------------------------------------------------


def _range_kernel(start: np.ndarray, limit: np.ndarray, delta: np.ndarray) -> np.ndarray:
    return np.arange(start, limit, delta, dtype=start.dtype)


register_simple("Range", _range_kernel)
not_differentiable("Range")


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> Tensor:
    if limit is None:
        start, limit = 0, start
    vals = [start, limit, delta]
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
    else:
        known = [dtypes.infer_dtype(v) if not isinstance(v, Tensor) else v.dtype for v in vals]
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        dt = max(known, key=lambda d: order.index(d) if d in order else 0)
    ts = [OPS["cast"](convert_to_tensor(v), dt) if isinstance(v, Tensor) else constant(v, dt) for v in vals]
    return apply("Range", ts, name=name)


# --- reshape / transpose / expand / squeeze ------------------------------------------------------


def _reshape_kernel(x: np.ndarray, s: np.ndarray) -> np.ndarray:
    try:
        return x.reshape(tuple(int(d) for d in s))
    except ValueError:
        raise invalid_argument(
            f"Input to reshape is a tensor with {x.size} values, but the requested shape has "
            f"{int(np.prod([d for d in s if d >= 0]))} [Op:Reshape]") from None


register_simple("Reshape", _reshape_kernel)


@register_gradient("Reshape")
def _reshape_grad(op: Any, grad: Tensor) -> list:
    return [reshape(grad, shape(op.inputs[0])), None]


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Tensor:
    return apply("Reshape", [convert_to_tensor(tensor), _shape_arg(shape)], name=name)


def _transpose_make(attrs: dict) -> Any:
    perm = attrs["perm"]
    return lambda x: np.transpose(x, perm if perm is not None else None)


register("Transpose", _transpose_make)


@register_gradient("Transpose")
def _transpose_grad(op: Any, grad: Tensor) -> list:
    perm = op.attrs["perm"]
    inv = None if perm is None else list(np.argsort(perm))
    return [transpose(grad, inv)]


def transpose(a: Any, perm: Any = None, name: str = "transpose", conjugate: bool = False) -> Tensor:
    p = None if perm is None else [int(v) for v in np.asarray(_concrete(perm)).ravel()]
    return apply("Transpose", [convert_to_tensor(a)], {"perm": p}, name=name)


def _concrete(v: Any) -> Any:
    if isinstance(v, Tensor):
        from runtime.graph import constant_value

        c = constant_value(v)
        if c is None:
            raise Unsupported("a non-constant tensor as a structural argument")
        return c
    return v


def _expand_make(attrs: dict) -> Any:
    axis = attrs["axis"]
    return lambda x: np.expand_dims(x, axis)


register("ExpandDims", _expand_make)


@register_gradient("ExpandDims")
def _expand_grad(op: Any, grad: Tensor) -> list:
    return [reshape(grad, shape(op.inputs[0]))]


def expand_dims(input: Any, axis: Any, name: str | None = None, dim: Any = None) -> Tensor:
    ax = axis if axis is not None else dim
    return apply("ExpandDims", [convert_to_tensor(input)], {"axis": int(_concrete(ax))}, name=name)


def _squeeze_make(attrs: dict) -> Any:
    axis = attrs["axis"]
    return lambda x: np.squeeze(x, axis=tuple(axis) if axis else None)


register("Squeeze", _squeeze_make)
register_gradient("Squeeze")(lambda op, g: [reshape(g, shape(op.inputs[0]))])


def squeeze(input: Any, axis: Any = None, name: str | None = None, squeeze_dims: Any = None) -> Tensor:
    ax = axis if axis is not None else squeeze_dims
    if isinstance(ax, int):
        ax = [ax]
    return apply("Squeeze", [convert_to_tensor(input)], {"axis": list(ax) if ax else None}, name=name)


def squeeze_axes(x: Tensor, axis: Any) -> Tensor:
    return squeeze(x, None if axis is None else ([axis] if isinstance(axis, int) else list(axis)))


# --- concat / stack / split ----------------------------------------------------------------------


def _concat_make(attrs: dict) -> Any:
    axis = attrs["axis"]
    return lambda *xs: np.concatenate(xs, axis=axis)


register("ConcatV2", _concat_make)


def _concat_slice_make(attrs: dict) -> Any:
    axis, index = attrs["axis"], attrs["index"]

    def kernel(g: np.ndarray, *xs: np.ndarray) -> np.ndarray:
        ax = axis % g.ndim
        start = sum(x.shape[ax] for x in xs[:index])
        sl = [builtins.slice(None)] * g.ndim
        sl[ax] = builtins.slice(start, start + xs[index].shape[ax])
        return g[tuple(sl)]

    return kernel


register("ConcatSlice", _concat_slice_make)


@register_gradient("ConcatV2")
def _concat_grad(op: Any, grad: Tensor) -> list:
    return [apply("ConcatSlice", [grad, *op.inputs], {"axis": op.attrs["axis"], "index": i})
            for i in builtins.range(len(op.inputs))]


@register_gradient("ConcatSlice")
def _concat_slice_grad(op: Any, grad: Tensor) -> list:
    xs = op.inputs[1:]
    i = op.attrs["index"]
    parts = [grad if j == i else zeros_like(x) for j, x in enumerate(xs)]
    return [concat(parts, op.attrs["axis"])] + [None] * len(xs)


def concat(values: Any, axis: Any, name: str = "concat") -> Tensor:
    ts = [convert_to_tensor(v) for v in values]
    if len(ts) == 1:
        return OPS["identity"](ts[0])
    return apply("ConcatV2", ts, {"axis": int(_concrete(axis))}, name=name)


def _pack_make(attrs: dict) -> Any:
    axis = attrs["axis"]
    return lambda *xs: np.stack(xs, axis=axis)


register("Pack", _pack_make)
register_gradient("Pack")(lambda op, g: list(unstack(g, num=len(op.inputs), axis=op.attrs["axis"])))


def stack(values: Any, axis: int = 0, name: str = "stack") -> Tensor:
    ts = [convert_to_tensor(v) for v in values]
    if ts and any(t.dtype != ts[0].dtype for t in ts):
        hint = ts[0].dtype
        ts = [convert_to_tensor(v, dtype_hint=hint) if not isinstance(v, Tensor) else v for v in values]
    return apply("Pack", ts, {"axis": axis}, name=name)


def _unpack_make(attrs: dict) -> Any:
    axis = attrs["axis"]
    return lambda x: tuple(np.moveaxis(x, axis, 0))


register("Unpack", _unpack_make, n_out=lambda attrs: attrs["num"])


@register_gradient("Unpack")
def _unpack_grad(op: Any, *grads: Tensor) -> list:
    gs = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]
    return [stack(gs, axis=op.attrs["axis"])]


def unstack(value: Any, num: int | None = None, axis: int = 0, name: str = "unstack") -> list:
    x = convert_to_tensor(value)
    n = num if num is not None else x.shape[axis]
    if n is None:
        raise ValueError(f"Cannot infer argument `num` from shape {x.shape}")
    return list(apply("Unpack", [x], {"axis": axis, "num": n}, name=name))


def _split_make(attrs: dict) -> Any:
    axis, sizes = attrs["axis"], attrs["sizes"]
    idx = np.cumsum(sizes)[:-1]
    return lambda x: tuple(np.split(x, idx, axis=axis))


register("SplitV", _split_make, n_out=lambda attrs: len(attrs["sizes"]))


@register_gradient("SplitV")
def _split_grad(op: Any, *grads: Tensor) -> list:
    gs = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]
    return [concat(gs, op.attrs["axis"])]


def split(value: Any, num_or_size_splits: Any, axis: int = 0, num: Any = None, name: str = "split") -> list:
    x = convert_to_tensor(value)
    axis = int(_concrete(axis))
    dim = x.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)):
        if dim is None:
            raise Unsupported("tf.split of a dimension of unknown size")
        k = int(num_or_size_splits)
        sizes = [dim // k] * k
    else:
        sizes = [int(s) for s in np.asarray(_concrete(num_or_size_splits)).ravel()]
        if -1 in sizes and dim is not None:
            sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
    return list(apply("SplitV", [x], {"axis": axis, "sizes": sizes}, name=name))


# --- tile / pad / broadcast / reverse ---------------------------------------------------------------


register_simple("Tile", lambda x, m: np.tile(x, tuple(int(v) for v in m)))


def _tile_grad_kernel(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    shape_ = []
    for d, gd in zip(x.shape, g.shape):
        shape_ += [gd // d if d else 0, d]
    return g.reshape(shape_).sum(axis=tuple(builtins.range(0, len(shape_), 2))).astype(g.dtype, copy=False)


register_simple("TileGrad", _tile_grad_kernel)


@register_gradient("Tile")
def _tile_grad(op: Any, grad: Tensor) -> list:
    return [apply("TileGrad", [op.inputs[0], grad]), None]


@register_gradient("TileGrad")
def _tile_grad_grad(op: Any, grad: Tensor) -> list:
    x, g = op.inputs
    return [None, apply("Tile", [grad, OPS["cast"](OPS["floordiv"](shape(g), shape(x)), dtypes.int32)])]


def tile(input: Any, multiples: Any, name: str | None = None) -> Tensor:
    return apply("Tile", [convert_to_tensor(input), _shape_arg(multiples)], name=name)


def _pad_make(attrs: dict) -> Any:
    mode = attrs["mode"].lower()
    cval = attrs["constant_values"]

    def kernel(x: np.ndarray, p: np.ndarray) -> np.ndarray:
        width = [(int(a), int(b)) for a, b in p]
        if mode == "constant":
            return np.pad(x, width, mode="constant", constant_values=cval)
        return np.pad(x, width, mode="reflect" if mode == "reflect" else "symmetric")

    return kernel


register("Pad", _pad_make)


def _pad_grad_kernel(g: np.ndarray, p: np.ndarray) -> np.ndarray:
    sl = tuple(builtins.slice(int(a), g.shape[i] - int(b)) for i, (a, b) in enumerate(p))
    return g[sl]


register_simple("PadGrad", _pad_grad_kernel)


@register_gradient("Pad")
def _pad_grad(op: Any, grad: Tensor) -> list:
    if op.attrs["mode"].lower() != "constant":
        raise Unsupported("the gradient of tf.pad in REFLECT/SYMMETRIC mode")
    return [apply("PadGrad", [grad, op.inputs[1]]), None]


register_gradient("PadGrad")(
    lambda op, g: [apply("Pad", [g, op.inputs[1]], {"mode": "CONSTANT", "constant_values": 0}), None])


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", constant_values: Any = 0,
        name: str | None = None) -> Tensor:
    return apply("Pad", [convert_to_tensor(tensor), convert_to_tensor(paddings, dtype_hint=dtypes.int32)],
                 {"mode": mode, "constant_values": constant_values}, name=name)


register_simple("BroadcastTo", lambda x, s: np.array(np.broadcast_to(x, tuple(int(d) for d in s))))


@register_gradient("BroadcastTo")
def _broadcast_to_grad(op: Any, grad: Tensor) -> list:
    return [OPS["sum_to_shape"](grad, op.inputs[0]), None]


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Tensor:
    return apply("BroadcastTo", [convert_to_tensor(input), _shape_arg(shape)], name=name)


def _reverse_make(attrs: dict) -> Any:
    axis = tuple(attrs["axis"])
    return lambda x: np.flip(x, axis)


register("ReverseV2", _reverse_make)
register_gradient("ReverseV2")(lambda op, g: [apply("ReverseV2", [g], op.attrs)])


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Tensor:
    return apply("ReverseV2", [convert_to_tensor(tensor)],
                 {"axis": [int(a) for a in np.asarray(_concrete(axis)).ravel()]}, name=name)


# --- slicing -------------------------------------------------------------------------------------------


def _build_index(spec: tuple, dyn: tuple) -> tuple:
    out = []
    for item in spec:
        if isinstance(item, tuple) and item and item[0] == "T":
            out.append(int(dyn[item[1]]))
        elif isinstance(item, tuple) and item and item[0] == "S":
            parts = [int(dyn[p[1]]) if isinstance(p, tuple) else p for p in item[1:]]
            out.append(builtins.slice(*parts))
        else:
            out.append(item)
    return tuple(out)


def _slice_make(attrs: dict) -> Any:
    spec = attrs["spec"]
    return lambda x, *dyn: x[_build_index(spec, dyn)]


def _slice_grad_make(attrs: dict) -> Any:
    spec = attrs["spec"]

    def kernel(x: np.ndarray, g: np.ndarray, *dyn: np.ndarray) -> np.ndarray:
        out = np.zeros_like(x, dtype=g.dtype)
        out[_build_index(spec, dyn)] = g
        return out

    return kernel


register("StridedSlice", _slice_make)
register("StridedSliceGrad", _slice_grad_make)


@register_gradient("StridedSlice")
def _strided_slice_grad(op: Any, grad: Tensor) -> list:
    x, *dyn = op.inputs
    return [apply("StridedSliceGrad", [x, grad, *dyn], op.attrs)] + [None] * len(dyn)


@register_gradient("StridedSliceGrad")
def _strided_slice_grad_grad(op: Any, grad: Tensor) -> list:
    _, _, *dyn = op.inputs
    return [None, apply("StridedSlice", [grad, *dyn], op.attrs)] + [None] * len(dyn)


def _index_part(v: Any, dyn: list) -> Any:
    if v is None:
        return None
    if isinstance(v, Tensor):
        from runtime.graph import constant_value

        c = constant_value(v)
        if c is not None:
            return int(c)
        dyn.append(v)
        return ("T", len(dyn) - 1)
    if hasattr(v, "_as_tensor"):
        return _index_part(v._as_tensor(), dyn)
    return int(v)


def getitem(x: Any, key: Any) -> Tensor:
    """``tensor[key]`` with ints, slices, ``None``/``tf.newaxis``, ``...`` and scalar tensors."""
    x = convert_to_tensor(x)
    if not isinstance(key, tuple):
        key = (key,)
    spec: list = []
    dyn: list = []
    for k in key:
        if k is None or k is Ellipsis:
            spec.append(k)
        elif isinstance(k, builtins.slice):
            parts = [_index_part(p, dyn) for p in (k.start, k.stop, k.step)]
            if any(isinstance(p, tuple) for p in parts):
                spec.append(("S", *parts))
            else:
                spec.append(builtins.slice(*parts))
        elif isinstance(k, (list, np.ndarray)) or (isinstance(k, Tensor) and k.shape.rank not in (0, None)):
            raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                            "scalar tf.int32/tf.int64 tensors are valid indices, got " + repr(k))
        else:
            spec.append(_index_part(k, dyn))
    return apply("StridedSlice", [x, *dyn], {"spec": tuple(spec)}, name="strided_slice")


def _slice_kernel(x: np.ndarray, begin: np.ndarray, size: np.ndarray) -> np.ndarray:
    return x[tuple(builtins.slice(int(b), None if s == -1 else int(b) + int(s)) for b, s in zip(begin, size))]


def _slice_shape(inputs: list, attrs: dict) -> list:
    from runtime.graph import constant_value

    x, _, size = inputs
    known = constant_value(size)
    rank = x.shape.rank
    if known is None:
        return [(TensorShape(None if rank is None else [None] * rank), x.dtype)]
    return [(TensorShape([None if s == -1 else int(s) for s in np.asarray(known).ravel()]), x.dtype)]


register_simple("Slice", _slice_kernel, shape_fn=_slice_shape)


@register_gradient("Slice")
def _slice_grad(op: Any, grad: Tensor) -> list:
    """Pad the gradient back to the input's shape: ``begin`` before, the rest after."""
    from runtime.ops import math as m

    x, begin = op.inputs[0], op.inputs[1]
    after = m.subtract(m.subtract(shape(x, out_type=begin.dtype), begin), shape(grad, out_type=begin.dtype))
    return [apply("Pad", [grad, stack([begin, after], axis=1)], {"mode": "CONSTANT", "constant_values": 0}),
            None, None]


def slice(input_: Any, begin: Any, size: Any, name: str | None = None) -> Tensor:
    from runtime.graph import constant_value

    if constant_value(begin) is None or constant_value(size) is None:
        return apply("Slice", [convert_to_tensor(input_), convert_to_tensor(begin, dtype_hint=dtypes.int32),
                               convert_to_tensor(size, dtype_hint=dtypes.int32)], name=name or "Slice")
    b = [int(v) for v in np.asarray(_concrete(begin)).ravel()]
    s = [int(v) for v in np.asarray(_concrete(size)).ravel()]
    key = tuple(builtins.slice(bi, None if si == -1 else bi + si) for bi, si in zip(b, s))
    return getitem(input_, key)


def strided_slice(input_: Any, begin: Any, end: Any, strides: Any = None, **_: Any) -> Tensor:
    b = [int(v) for v in np.asarray(_concrete(begin)).ravel()]
    e = [int(v) for v in np.asarray(_concrete(end)).ravel()]
    st = [1] * len(b) if strides is None else [int(v) for v in np.asarray(_concrete(strides)).ravel()]
    return getitem(input_, tuple(builtins.slice(*t) for t in zip(b, e, st)))


# --- gather / one_hot -----------------------------------------------------------------------------------


def _gather_make(attrs: dict) -> Any:
    axis = attrs["axis"]

    def kernel(params: np.ndarray, indices: np.ndarray) -> np.ndarray:
        n = params.shape[axis]
        if indices.size and (indices.min() < 0 or indices.max() >= n):
            bad = indices[(indices < 0) | (indices >= n)].ravel()[0]
            raise invalid_argument(f"indices = {bad} is not in [0, {n}) [Op:GatherV2]")
        return np.take(params, indices, axis=axis)

    return kernel


def _gather_grad_make(attrs: dict) -> Any:
    axis = attrs["axis"]

    def kernel(params: np.ndarray, indices: np.ndarray, g: np.ndarray) -> np.ndarray:
        out = np.zeros(params.shape, dtype=g.dtype)
        moved = np.moveaxis(out, axis, 0)
        gm = np.moveaxis(g, tuple(builtins.range(axis, axis + indices.ndim)), tuple(builtins.range(indices.ndim)))
        np.add.at(moved, indices, gm)
        return out

    return kernel


register("GatherV2", _gather_make)
register("GatherGrad", _gather_grad_make)


@register_gradient("GatherV2")
def _gather_grad(op: Any, grad: Tensor) -> list:
    params, indices = op.inputs
    return [apply("GatherGrad", [params, indices, grad], op.attrs), None]


@register_gradient("GatherGrad")
def _gather_grad_grad(op: Any, grad: Tensor) -> list:
    _, indices, _ = op.inputs
    return [None, None, apply("GatherV2", [grad, indices], op.attrs)]


def gather(params: Any, indices: Any, validate_indices: Any = None, axis: Any = None,
           batch_dims: int = 0, name: str | None = None) -> Tensor:
    p = convert_to_tensor(params)
    i = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    ax = 0 if axis is None else int(_concrete(axis))
    if ax < 0:
        ax += p.shape.rank
    return apply("GatherV2", [p, i], {"axis": ax}, name=name)


def _one_hot_make(attrs: dict) -> Any:
    depth, axis, on, off, dt = attrs["depth"], attrs["axis"], attrs["on"], attrs["off"], attrs["dtype"]

    def kernel(indices: np.ndarray) -> np.ndarray:
        eye = indices[..., None] == np.arange(depth)
        out = np.where(eye, np.asarray(on, dt.np), np.asarray(off, dt.np))
        return np.moveaxis(out, -1, axis) if axis != -1 else out

    return kernel


register("OneHot", _one_hot_make)
not_differentiable("OneHot")


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32
    return apply("OneHot", [convert_to_tensor(indices)],
                 {"depth": int(_concrete(depth)), "axis": -1 if axis is None else axis,
                  "on": 1 if on_value is None else on_value, "off": 0 if off_value is None else off_value,
                  "dtype": dt}, name=name)



OPS.update({"getitem": getitem, "stack": stack})
