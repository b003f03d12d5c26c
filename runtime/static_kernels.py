"""Kernels specialized to an op's static shapes when a plan is compiled.

A generic kernel works out per call what the shapes say (which axes a broadcast gradient sums
over, the shape a reduced gradient expands to); when the graph already fixes those, the plan
binds a kernel with the answer built in. Each specialization makes the same NumPy calls in the
same order as the generic kernel, so values are bit-identical; it returns None (keep the generic
kernel) when the static shapes leave the answer open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_add_reduce = np.add.reduce


def _sum_to_shape(op: Any) -> Callable | None:
    gs, ls = op.inputs[0].shape, op.inputs[1].shape
    if gs.rank is None or not ls.is_fully_defined() or gs.rank < ls.rank:
        return None
    g_dims, l_dims = gs.as_list(), ls.as_list()
    nd = len(g_dims) - len(l_dims)
    if any(d == 1 and g_dims[i + nd] is None for i, d in enumerate(l_dims)):
        return None
    axes = tuple(range(nd)) + tuple(
        i + nd for i, d in enumerate(l_dims) if d == 1 and g_dims[i + nd] != 1
    )
    if not axes:
        return None
    shape = tuple(l_dims)
    if op.inputs[0].dtype.is_floating:  # a float sum keeps its dtype: the cast is a no-op

        def kernel(g: np.ndarray, like: Any) -> np.ndarray:
            return _add_reduce(g, axis=axes, keepdims=True).reshape(shape)

        return kernel

    def cast_kernel(g: np.ndarray, like: Any) -> np.ndarray:
        return _add_reduce(g, axis=axes, keepdims=True).reshape(shape).astype(g.dtype, copy=False)

    return cast_kernel


def _broadcast_like(op: Any) -> Callable | None:
    like = op.inputs[1].shape
    if not like.is_fully_defined():
        return None
    shape = tuple(like.as_list())
    empty, copyto = np.empty, np.copyto

    def kernel(g: np.ndarray, like: Any) -> np.ndarray:
        out = empty(shape, g.dtype)
        copyto(out, g)
        return out

    return kernel


def _expand_reduced(op: Any) -> Callable | None:
    from runtime.ops.math import _axes

    x = op.inputs[1].shape
    if not x.is_fully_defined():
        return None
    dims = x.as_list()
    axes = _axes(op.attrs["axis"], len(dims))
    shape = [1 if (axes is None or i in axes) else d for i, d in enumerate(dims)]

    def kernel(g: np.ndarray, x: Any) -> np.ndarray:
        return g.reshape(shape)

    return kernel


def _expand_dims(op: Any) -> Callable | None:
    """``np.expand_dims`` is ``reshape`` to the shape with a 1 inserted: the position is static."""
    rank = op.inputs[0].shape.rank
    axis = op.attrs["axis"]
    if rank is None or not isinstance(axis, (int, np.integer)) or not -rank - 1 <= axis <= rank:
        return None
    k = int(axis) % (rank + 1)
    asarray = np.asarray

    def kernel(x: Any) -> np.ndarray:
        x = asarray(x)
        s = x.shape
        return x.reshape(s[:k] + (1,) + s[k:])

    return kernel


#: Op type -> builder of its specialized kernel from the op (None: keep the generic kernel).
SPECIALIZE: dict[str, Callable[[Any], Callable | None]] = {
    "SumToShape": _sum_to_shape,
    "BroadcastLike": _broadcast_like,
    "ExpandReduced": _expand_reduced,
    "ExpandDims": _expand_dims,
}
