"""Segment max/min/mean (sorted and unsorted ids), next to search.py's segment sums.

Max/min are kernels whose gradient splits each segment's gradient evenly between the entries
that attain the extreme (TF's rule); means are sums divided by counts, as TF builds them."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import dtypes
from runtime.convert import convert_to_tensor
from runtime.errors import invalid_argument
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops.registry import apply, register, register_gradient
from runtime.ops.search import (
    _segment_sum_spec,
    _unsorted_segment_sum_spec,
    check_segment_ids,
    segment_sum,
    unsorted_segment_sum,
)
from runtime.tensor import Tensor

_UFUNCS = {"Max": np.maximum, "Min": np.minimum}


def _extreme(dtype: np.dtype, kind: str) -> Any:
    """The identity of max/min: TF fills empty unsorted segments with it."""
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min if kind == "Max" else info.max


def _sorted_make(kind: str) -> Any:
    def make(attrs: dict) -> Any:
        def kernel(data: np.ndarray, ids: np.ndarray) -> np.ndarray:
            if ids.size and np.any(np.diff(ids) < 0):
                raise invalid_argument(f"segment ids are not increasing [Op:Segment{kind}]")
            n = int(ids[-1]) + 1 if ids.size else 0
            out = np.full((n, *data.shape[1:]), _extreme(data.dtype, kind), dtype=data.dtype)
            _UFUNCS[kind].at(out, ids, data)
            out[np.bincount(ids, minlength=n) == 0] = 0  # empty sorted segments are 0
            return out

        return kernel

    return make


def _unsorted_make(kind: str) -> Any:
    def make(attrs: dict) -> Any:
        def kernel(data: np.ndarray, ids: np.ndarray, num: np.ndarray) -> np.ndarray:
            n = int(num)
            check_segment_ids(ids, n, f"UnsortedSegment{kind}")
            out = np.full((n, *data.shape[ids.ndim:]), _extreme(data.dtype, kind), dtype=data.dtype)
            keep = ids >= 0
            _UFUNCS[kind].at(out, ids[keep], data[keep])
            return out

        return kernel

    return make


def _min_or_max_grad(op: Any, grad: Tensor) -> list:
    """Each segment's gradient, shared evenly by the entries equal to the segment's extreme."""
    data, ids = op.inputs[0], op.inputs[1]
    unsorted = len(op.inputs) == 3
    valid = M.greater_equal(ids, M.cast(0, ids.dtype))
    safe_ids = M.maximum(ids, M.cast(0, ids.dtype))
    is_selected = M.equal(data, A.gather(op.outputs[0], safe_ids))
    if unsorted:
        mask = valid
        for _ in range((data.shape.rank or 0) - (ids.shape.rank or 0)):
            mask = A.expand_dims(mask, -1)
        is_selected = M.logical_and(is_selected, mask)
    picked = M.cast(is_selected, grad.dtype)
    count = unsorted_segment_sum(picked, ids, A.shape(grad)[0]) if unsorted else segment_sum(picked, ids)
    # an empty segment has no selected entries: dividing by 1 there keeps NaNs out of 0 * (g / 0)
    shared = A.gather(M.truediv(grad, M.maximum(count, M.cast(1, count.dtype))), safe_ids)
    return [M.where(is_selected, shared, A.zeros_like(shared)), None] + ([None] if unsorted else [])


for _kind in _UFUNCS:
    register(f"Segment{_kind}", _sorted_make(_kind), shape_fn=_segment_sum_spec)
    register(f"UnsortedSegment{_kind}", _unsorted_make(_kind), shape_fn=_unsorted_segment_sum_spec)
    register_gradient(f"Segment{_kind}")(_min_or_max_grad)
    register_gradient(f"UnsortedSegment{_kind}")(_min_or_max_grad)


def _ids(segment_ids: Any) -> Tensor:
    return convert_to_tensor(segment_ids, dtype_hint=dtypes.int32)


def segment_max(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    return apply("SegmentMax", [convert_to_tensor(data), _ids(segment_ids)], name=name)


def segment_min(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    return apply("SegmentMin", [convert_to_tensor(data), _ids(segment_ids)], name=name)


def unsorted_segment_max(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    return apply("UnsortedSegmentMax", [convert_to_tensor(data), _ids(segment_ids),
                                        convert_to_tensor(num_segments, dtype_hint=dtypes.int32)], name=name)


def unsorted_segment_min(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    return apply("UnsortedSegmentMin", [convert_to_tensor(data), _ids(segment_ids),
                                        convert_to_tensor(num_segments, dtype_hint=dtypes.int32)], name=name)


def _row_counts(data: Tensor, ids: Tensor, num: Any = None) -> Tensor:
    """Entries per segment, shaped to broadcast against the segment results."""
    ones = A.ones_like(ids, dtype=data.dtype)
    n = segment_sum(ones, ids) if num is None else unsorted_segment_sum(ones, ids, num)
    for _ in range((data.shape.rank or 0) - (ids.shape.rank or 0)):
        n = A.expand_dims(n, -1)
    return n


def segment_mean(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    """Sum over count; integer means truncate toward zero like TF's kernel. Empty segments are 0."""
    x, ids = convert_to_tensor(data), _ids(segment_ids)
    total = segment_sum(x, ids)
    n = M.maximum(_row_counts(x, ids), M.cast(1, x.dtype))
    if x.dtype.is_integer:
        return M.multiply(M.sign(total), M.floordiv(M.abs(total), n), name=name)
    return M.truediv(total, n, name=name)


def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    x, ids = convert_to_tensor(data), _ids(segment_ids)
    n = M.maximum(_row_counts(x, ids, num_segments), M.cast(1, x.dtype))
    return M.truediv(unsorted_segment_sum(x, ids, num_segments), n, name=name)
