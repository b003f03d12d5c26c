"""Search and index ops: top_k/sort/argsort, unique, boolean_mask, gather_nd/scatter_nd, segment
sums, sequence_mask, in_top_k. Outputs whose size depends on values get an explicit shape rule
(probing with placeholder stand-ins would invent a static size)."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.api_scopes import name_scope
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported, invalid_argument
from runtime.graph import constant_value
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops.linalg import attr_error
from runtime.ops.registry import (
    apply,
    not_differentiable,
    register,
    register_gradient,
    register_simple,
)
from runtime.shapes import TensorShape, dims_text
from runtime.tensor import Tensor

# --- top_k / sort / argsort ---------------------------------------------------------------------------------


def _descending_order(x: np.ndarray) -> np.ndarray:
    """Indices sorting the last axis descending; equal values keep index order (TF's TopKV2)."""
    key = ~x if x.dtype.kind in "iu" else -x
    return np.argsort(key, axis=-1, kind="stable")


def _top_k_make(attrs: dict) -> Any:
    index_np = attrs["index_type"].np

    def kernel(x: np.ndarray, k: np.ndarray) -> tuple:
        k = int(k)
        if k < 0:
            raise invalid_argument(f"Need k >= 0, got {k} [Op:TopKV2]")
        if x.ndim < 1 or x.shape[-1] < k:
            have = x.shape[-1] if x.ndim else 0
            raise invalid_argument(f"input must have at least k columns. Had {have}, needed {k} [Op:TopKV2]")
        idx = _descending_order(x)[..., :k]
        return np.take_along_axis(x, idx, -1), idx.astype(index_np)

    return kernel


def _take_last_kernel(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    return np.take_along_axis(x, idx.astype(np.int64), -1)


def _put_last_kernel(x: np.ndarray, idx: np.ndarray, g: np.ndarray) -> np.ndarray:
    out = np.zeros(x.shape, dtype=g.dtype)
    np.put_along_axis(out, idx.astype(np.int64), g, -1)
    return out


register("TopKV2", _top_k_make, n_out=2)
register_simple("TakeAlongLastAxis", _take_last_kernel)
register_simple("PutAlongLastAxis", _put_last_kernel)


@register_gradient("TopKV2")
def _top_k_grad(op: Any, grad: Tensor, _grad_indices: Any) -> list:
    if grad is None:
        return [None, None]
    return [apply("PutAlongLastAxis", [op.inputs[0], op.outputs[1], grad]), None]


register_gradient("TakeAlongLastAxis")(
    lambda op, g: [apply("PutAlongLastAxis", [op.inputs[0], op.inputs[1], g]), None])
register_gradient("PutAlongLastAxis")(
    lambda op, g: [None, None, apply("TakeAlongLastAxis", [g, op.inputs[1]])])


#: The (values, indices) namedtuple TF returns.
TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input: Any, k: Any = 1, sorted: bool = True, index_type: Any = dtypes.int32,
          name: str | None = None) -> TopKV2:
    """``tf.math.top_k``: the k largest entries of the last axis, ties in index order."""
    x = convert_to_tensor(input)
    kt = convert_to_tensor(k, dtype_hint=dtypes.int32)
    values, indices = apply("TopKV2", [x, kt], {"index_type": dtypes.as_dtype(index_type)}, name=name)
    return TopKV2(values, indices)


_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _sort_or_argsort(values: Any, axis: Any, direction: str, argsort: bool) -> Tensor:
    """TF's construction: top_k over the last axis of a (transposed) input; ascending negates."""
    if direction not in _DIRECTIONS:
        raise ValueError(f"Argument `direction` should be one of {', '.join(_DIRECTIONS)}. "
                         f"Received: direction={direction}")
    x = convert_to_tensor(values)
    axis = int(A._concrete(axis))
    rank = x.shape.rank
    if rank is None:
        raise Unsupported("tf.sort of a tensor of unknown rank")
    if direction == "ASCENDING":
        if x.dtype.is_unsigned:
            off = M.cast(x.dtype.max, x.dtype)
            x, undo = M.subtract(off, x), (lambda v: M.subtract(off, v))
        elif x.dtype.is_integer:
            x, undo = M.subtract(M.negative(x), 1), (lambda v: M.subtract(M.negative(v), 1))
        else:
            x, undo = M.negative(x), M.negative
    else:
        undo = None
    axis %= max(rank, 1)
    perm = None if axis == rank - 1 else [*range(axis), rank - 1, *range(axis + 1, rank - 1), axis]
    inp = x if perm is None else A.transpose(x, perm)
    k = A.shape(inp)[-1] if inp.shape.rank and inp.shape[-1] is None else inp.shape[-1]
    vals, idx = top_k(inp, k)
    out = idx if argsort else vals
    if perm is not None:
        out = A.transpose(out, perm)
    return out if argsort or undo is None else undo(out)


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING", name: str | None = None) -> Tensor:
    with name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, argsort=False)


def argsort(values: Any, axis: Any = -1, direction: str = "ASCENDING", stable: bool = False,
            name: str | None = None) -> Tensor:
    with name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, argsort=True)


# --- in_top_k ---------------------------------------------------------------------------------------------------


def _in_top_k_kernel(pred: np.ndarray, targets: np.ndarray, k: np.ndarray) -> np.ndarray:
    n = pred.shape[1]
    valid = (targets >= 0) & (targets < n)
    target_pred = pred[np.arange(pred.shape[0]), np.where(valid, targets, 0)]
    above = np.count_nonzero(pred > target_pred[:, None], axis=1)
    return valid & np.all(np.isfinite(pred), axis=1) & (above < int(k))


def _in_top_k_spec(inputs: list, attrs: dict) -> list:
    rows = TensorShape(inputs[0].shape.as_list()[:1] if inputs[0].shape.rank else None)
    return [(rows.merge_with(inputs[1].shape), dtypes.bool_)]


register_simple("InTopKV2", _in_top_k_kernel, shape_fn=_in_top_k_spec)
not_differentiable("InTopKV2")


def in_top_k_v2(targets: Any, predictions: Any, k: Any, name: str | None = None) -> Tensor:
    """``tf.math.in_top_k``: whether each target is among the k largest predictions (ties count)."""
    p = convert_to_tensor(predictions, dtype_hint=dtypes.float32)
    t = convert_to_tensor(targets, dtype_hint=dtypes.int32)
    if not context.executing_eagerly():
        # Building a graph, TF checks the inputs against the op's signature, in its order.
        if p.dtype != dtypes.float32:
            raise TypeError(f"Input 'predictions' of 'InTopKV2' Op has type {p.dtype.name} that does not "
                            "match expected type of float32.")
        if t.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Value passed to parameter 'targets' has DataType {t.dtype.name} not in list "
                            "of allowed values: int32, int64")
    if not t.dtype.is_integer:
        raise attr_error(t.dtype, "int32, int64", "InTopKV2")
    if p.dtype != dtypes.float32:
        raise invalid_argument(f"cannot compute InTopKV2 as input #0(zero-based) was expected to be a float "
                               f"tensor but is a {dtypes.kernel_name(p.dtype)} tensor [Op:InTopKV2]")
    with name_scope(name, "in_top_k"):
        return apply("InTopKV2", [p, t, convert_to_tensor(k, dtype=t.dtype)])


def in_top_k(predictions: Any, targets: Any, k: Any, name: str | None = None) -> Tensor:
    """TF 1.x argument order: predictions first."""
    return in_top_k_v2(targets, predictions, k, name=name)


# --- unique -------------------------------------------------------------------------------------------------------


def _unique_make(attrs: dict) -> Any:
    idx_np = attrs["out_idx"].np

    def kernel(x: np.ndarray) -> tuple:
        if x.ndim != 1:
            raise invalid_argument("unique expects a 1D vector. [Op:Unique]")
        _, first, inverse = np.unique(x, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return x[np.sort(first)], rank[inverse.ravel()].astype(idx_np)

    return kernel


def _unique_spec(inputs: list, attrs: dict) -> list:
    x = inputs[0]
    return [(TensorShape([None]), x.dtype), (x.shape, attrs["out_idx"])]


register("Unique", _unique_make, n_out=2, shape_fn=_unique_spec)
not_differentiable("Unique")


Unique = collections.namedtuple("Unique", ["y", "idx"])


def unique(x: Any, out_idx: Any = dtypes.int32, name: str | None = None) -> Unique:
    """``tf.unique``: distinct values in order of first occurrence, and each entry's index into them."""
    y, idx = apply("Unique", [convert_to_tensor(x)], {"out_idx": dtypes.as_dtype(out_idx)}, name=name)
    return Unique(y, idx)


# --- boolean_mask -------------------------------------------------------------------------------------------------


def boolean_mask(tensor: Any, mask: Any, axis: Any = None, name: str = "boolean_mask") -> Tensor:
    """``tf.boolean_mask`` as TF builds it: merge the masked axes, then gather where the mask is true."""
    x = convert_to_tensor(tensor)
    m = convert_to_tensor(mask)
    nm = m.shape.rank
    if nm == 0:
        raise ValueError("mask cannot be scalar.")
    if nm is None:
        raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                         "E.g. shape=[None] is ok, but shape=None is not.")
    ax = 0 if axis is None else int(A._concrete(axis))
    if x.shape.rank is not None:
        ax %= max(x.shape.rank, 1)
        part = TensorShape(x.shape.as_list()[ax:ax + nm])
        if not part.is_compatible_with(m.shape):
            raise ValueError(f"Shapes {part} and {m.shape} are incompatible")
    with name_scope(name, "boolean_mask"):
        sx = A.shape(x)
        merged = A.concat([sx[:ax], M.reduce_prod(sx[ax:ax + nm], 0, keepdims=True), sx[ax + nm:]], 0)
        flat = A.reshape(x, merged)
        idx = A.squeeze(M.where(A.reshape(m, [-1])), [1])
        return A.gather(flat, idx, axis=ax)


def boolean_mask_v1(tensor: Any, mask: Any, name: str = "boolean_mask", axis: Any = None) -> Tensor:
    return boolean_mask(tensor, mask, axis, name)


# --- gather_nd / scatter_nd ---------------------------------------------------------------------------------------


def _nd_index(idx: np.ndarray, shape: tuple, what: str, op_type: str) -> tuple:
    r = idx.shape[-1]
    flat = idx.reshape(-1, r)
    bad = np.nonzero(np.any((flat < 0) | (flat >= np.asarray(shape[:r], dtype=np.int64)), axis=1))[0]
    if bad.size:
        i = int(bad[0])
        where = ", ".join(str(int(v)) for v in flat[i])
        dims = ",".join(str(d) for d in shape)
        raise invalid_argument(f"indices[{i}] = [{where}] does not index into {what} [{dims}]"
                               f"{', node name: GatherNd' if op_type == 'GatherNd' else ''} [Op:{op_type}]")
    return tuple(np.moveaxis(idx, -1, 0))


def _gather_nd_kernel(params: np.ndarray, indices: np.ndarray) -> np.ndarray:
    return params[_nd_index(indices, params.shape, "param shape", "GatherNd")]


def _check_updates(indices: np.ndarray, updates: np.ndarray, dims: tuple) -> None:
    """``updates`` must be ``indices.shape[:-1] + shape[r:]`` (TF's messages for each half)."""
    outer, r = indices.ndim - 1, indices.shape[-1]
    if updates.shape[:outer] != indices.shape[:-1]:
        raise invalid_argument(
            f"Dimensions [0,{outer}) of indices[shape={dims_text(indices.shape)}] must match dimensions "
            f"[0,{outer}) of updates[shape={dims_text(updates.shape)}] [Op:ScatterNd]")
    if updates.shape[outer:] != dims[r:]:
        raise invalid_argument(
            f"Dimensions [{r},{len(dims)}) of input[shape={dims_text(dims)}] must match dimensions "
            f"[{outer},{updates.ndim}) of updates[shape={dims_text(updates.shape)}] [Op:ScatterNd]")


def _scatter_nd_kernel(indices: np.ndarray, updates: np.ndarray, shape: np.ndarray) -> np.ndarray:
    dims = tuple(int(d) for d in shape)
    _check_updates(indices, updates, dims)
    out = np.zeros(dims, dtype=updates.dtype)
    np.add.at(out, _nd_index(indices, dims, "shape", "ScatterNd"), updates)
    return out


def _gather_nd_spec(inputs: list, attrs: dict) -> list:
    params, indices = inputs
    if params.shape.rank is None or indices.shape.rank is None or indices.shape[-1] is None:
        return [(TensorShape(None), params.dtype)]
    r = indices.shape[-1]
    return [(TensorShape(indices.shape.as_list()[:-1] + params.shape.as_list()[r:]), params.dtype)]


register_simple("GatherNd", _gather_nd_kernel, shape_fn=_gather_nd_spec)


def _scatter_nd_spec(inputs: list, attrs: dict) -> list:
    _, updates, shape = inputs
    known = constant_value(shape)
    if known is not None:
        return [(TensorShape([int(d) for d in np.asarray(known).ravel()]), updates.dtype)]
    return [(TensorShape(None) if shape.shape[0] is None else TensorShape([None] * shape.shape[0]), updates.dtype)]


register_simple("ScatterNd", _scatter_nd_kernel, shape_fn=_scatter_nd_spec)


@register_gradient("GatherNd")
def _gather_nd_grad(op: Any, grad: Tensor) -> list:
    params, indices = op.inputs
    return [apply("ScatterNd", [indices, grad, A.shape(params, out_type=indices.dtype)]), None]


register_gradient("ScatterNd")(lambda op, g: [None, apply("GatherNd", [g, op.inputs[0]]), None])


def gather_nd(params: Any, indices: Any, batch_dims: int = 0, name: str | None = None,
              bad_indices_policy: str = "") -> Tensor:
    if batch_dims:
        raise Unsupported("tf.gather_nd with batch_dims")
    return apply("GatherNd", [convert_to_tensor(params), convert_to_tensor(indices, dtype_hint=dtypes.int32)],
                 name=name)


def gather_nd_v1(params: Any, indices: Any, name: str | None = None, batch_dims: int = 0,
                 bad_indices_policy: str = "") -> Tensor:
    return gather_nd(params, indices, batch_dims, name)


def scatter_nd(indices: Any, updates: Any, shape: Any, bad_indices_policy: str = "",
               name: str | None = None) -> Tensor:
    i = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    return apply("ScatterNd", [i, convert_to_tensor(updates), convert_to_tensor(shape, dtype=i.dtype)], name=name)


# --- segment sums ---------------------------------------------------------------------------------------------------


def _segment_sum_kernel(data: np.ndarray, ids: np.ndarray) -> np.ndarray:
    if ids.size and np.any(np.diff(ids) < 0):
        raise invalid_argument("segment ids are not increasing [Op:SegmentSum]")
    if ids.size and ids[0] < 0:
        raise invalid_argument("segment ids must be >= 0 [Op:SegmentSum]")
    out = np.zeros((int(ids[-1]) + 1 if ids.size else 0, *data.shape[1:]), dtype=data.dtype)
    np.add.at(out, ids, data)
    return out


def check_segment_ids(ids: np.ndarray, n: int, op_type: str) -> None:
    """TF's error for the first segment id at or past ``n`` (negative ids are dropped, not errors)."""
    flat = ids.ravel()
    bad = np.nonzero(flat >= n)[0]
    if bad.size:
        i = int(bad[0])
        raise invalid_argument(f"segment_ids[{i}] = {flat[i]} is out of range [0, {n}) [Op:{op_type}]")


def _unsorted_segment_sum_kernel(data: np.ndarray, ids: np.ndarray, num: np.ndarray) -> np.ndarray:
    n = int(num)
    check_segment_ids(ids, n, "UnsortedSegmentSum")
    out = np.zeros((n, *data.shape[ids.ndim:]), dtype=data.dtype)
    keep = ids >= 0
    np.add.at(out, ids[keep], data[keep])
    return out


def _segment_sum_spec(inputs: list, attrs: dict) -> list:
    data = inputs[0]
    rest = [] if data.shape.rank is None else data.shape.as_list()[1:]
    return [(TensorShape(None) if data.shape.rank is None else TensorShape([None, *rest]), data.dtype)]


register_simple("SegmentSum", _segment_sum_kernel, shape_fn=_segment_sum_spec)
def _unsorted_segment_sum_spec(inputs: list, attrs: dict) -> list:
    data, ids, num = inputs
    n = constant_value(num)
    if data.shape.rank is None or ids.shape.rank is None:
        return [(TensorShape(None), data.dtype)]
    return [(TensorShape([None if n is None else int(n), *data.shape.as_list()[ids.shape.rank:]]), data.dtype)]


register_simple("UnsortedSegmentSum", _unsorted_segment_sum_kernel, shape_fn=_unsorted_segment_sum_spec)


def _gather_drop_negatives(grad: Tensor, ids: Tensor, data: Tensor) -> Tensor:
    """Each data row's gradient is its segment's gradient; rows with a negative id were dropped."""
    picked = A.gather(grad, M.maximum(ids, M.cast(0, ids.dtype)))
    keep = M.cast(M.greater_equal(ids, M.cast(0, ids.dtype)), grad.dtype)
    extra = (data.shape.rank or 0) - (ids.shape.rank or 0)
    for _ in range(extra):
        keep = A.expand_dims(keep, -1)
    return M.multiply(picked, keep)


register_gradient("SegmentSum")(lambda op, g: [A.gather(g, op.inputs[1]), None])
register_gradient("UnsortedSegmentSum")(
    lambda op, g: [_gather_drop_negatives(g, op.inputs[1], op.inputs[0]), None, None])


def segment_sum(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    return apply("SegmentSum", [convert_to_tensor(data), convert_to_tensor(segment_ids, dtype_hint=dtypes.int32)],
                 name=name)


def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    ids = convert_to_tensor(segment_ids, dtype_hint=dtypes.int32)
    return apply("UnsortedSegmentSum", [convert_to_tensor(data), ids,
                                        convert_to_tensor(num_segments, dtype_hint=dtypes.int32)], name=name)


# --- sequence_mask -----------------------------------------------------------------------------------------------


def _sequence_mask_kernel(lengths: np.ndarray, maxlen: np.ndarray) -> np.ndarray:
    return np.arange(maxlen, dtype=maxlen.dtype) < lengths[..., None].astype(maxlen.dtype)


def _sequence_mask_spec(inputs: list, attrs: dict) -> list:
    lengths, maxlen = inputs
    known = constant_value(maxlen)
    last = None if known is None else int(known)
    shape = TensorShape(None) if lengths.shape.rank is None else TensorShape([*lengths.shape.as_list(), last])
    return [(shape, dtypes.bool_)]


register_simple("SequenceMask", _sequence_mask_kernel, shape_fn=_sequence_mask_spec)
not_differentiable("SequenceMask")


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = dtypes.bool_, name: str | None = None) -> Tensor:
    """``tf.sequence_mask``: row i is ``range(maxlen) < lengths[i]``."""
    with name_scope(name, "SequenceMask"):
        n = convert_to_tensor(lengths)
        if maxlen is None:
            top = M.reduce_max(n)
            maxlen_t = M.maximum(M.cast(0, top.dtype), top)
        else:
            maxlen_t = convert_to_tensor(maxlen)
        if maxlen_t.shape.rank not in (None, 0):
            raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen_t} "
                             f"with shape '{maxlen_t.shape}' instead")
        out = apply("SequenceMask", [n, maxlen_t], name="Less")  # TF's mask is a Less op: same name
        dt = dtypes.as_dtype(dtype)
        return out if dt == dtypes.bool_ else M.cast(out, dt)
