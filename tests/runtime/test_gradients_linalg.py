"""Linear algebra, search and conv-variant gradients against float64 central differences, over
shapes drawn by hypothesis (batch dims, matrix sizes, axes, k, strides, paddings)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from runtime.ops import array as A
from runtime.ops import conv_variants as CV
from runtime.ops import image as IM
from runtime.ops import linalg as LA
from runtime.ops import math as M
from runtime.ops import search as S
from runtime.ops import segments as SG
from runtime.tensor import EagerTensor
from tests.runtime.test_gradients import SETTINGS, check, values

batch = st.lists(st.integers(1, 2), min_size=0, max_size=2).map(tuple)
size = st.integers(1, 3)


def _spd(a: EagerTensor) -> EagerTensor:
    n = a.shape[-1]
    return M.matmul(a, a, transpose_b=True) + EagerTensor(2.0 * np.eye(n))


@SETTINGS
@given(b=batch, n=size, k=size, adjoint=st.booleans())
def test_inverse_det_solve(b: tuple, n: int, k: int, adjoint: bool) -> None:
    a = values((*b, n, n), seed=1) + 3.0 * np.eye(n)
    rhs = values((*b, n, k), seed=2)
    check(lambda t: LA.inv(t, adjoint=adjoint), a)
    check(LA.det, a)
    check(lambda t, r: LA.solve(t, r, adjoint=adjoint), a, rhs)


@SETTINGS
@given(b=batch, n=size)
def test_cholesky(b: tuple, n: int) -> None:
    check(lambda t: LA.cholesky(_spd(t)), values((*b, n, n), seed=3))


@SETTINGS
@given(b=batch, m=size, n=size, lower=st.integers(-1, 2), upper=st.integers(-1, 2))
def test_diagonals_and_bands(b: tuple, m: int, n: int, lower: int, upper: int) -> None:
    x = values((*b, m, n))
    check(lambda t: LA.band_part(t, lower, upper), x)
    check(LA.matrix_diag_part, x)
    check(LA.matrix_transpose, x)
    check(LA.matrix_diag, values((*b, n)))


EINSUMS = {
    "ij,jk->ik": [(2, 3), (3, 2)], "bij,bjk->bik": [(2, 2, 3), (2, 3, 1)], "i,j->ij": [(3,), (2,)],
    "ij->ji": [(2, 3)], "ij->": [(2, 3)], "ij,ij->i": [(2, 3), (2, 3)], "ij,k->k": [(2, 2), (3,)],
    "...ij,jk->...ik": [(2, 2, 3), (3, 2)], "ij,jk": [(2, 3), (3, 2)], "abc,cd->abd": [(1, 2, 3), (3, 2)],
    "ii->": [(3, 3)], "bii->bi": [(2, 3, 3)], "ij,jj->i": [(2, 3), (3, 3)], "iij->j": [(2, 2, 3)],
}


@pytest.mark.parametrize("equation", sorted(EINSUMS))
def test_einsum(equation: str) -> None:
    xs = [values(s, seed=i) for i, s in enumerate(EINSUMS[equation])]
    check(lambda *ts: LA.einsum(equation, *ts), *xs)


@pytest.mark.parametrize(("axes", "sa", "sb"), [(0, (2, 3), (2,)), (1, (2, 3), (3, 2)), (2, (2, 3, 2), (3, 2, 2)),
                                             ([[0], [1]], (2, 3), (3, 2)), ([[1, 2], [0, 1]], (2, 3, 2), (3, 2))])
def test_tensordot(axes: Any, sa: tuple, sb: tuple) -> None:
    check(lambda a, b: LA.tensordot(a, b, axes), values(sa, seed=1), values(sb, seed=2))


@SETTINGS
@given(ord=st.sampled_from(["euclidean", 1, 2, np.inf]), axis=st.sampled_from([None, 0, 1, -1]),
       keep=st.booleans())
def test_vector_norms(ord: Any, axis: Any, keep: bool) -> None:
    x = _distinct((3, 4), 5) + 0.1  # distinct magnitudes: max|x| has one argmax
    x = x * np.where(np.arange(12).reshape(3, 4) % 3 == 1, -1, 1)
    check(lambda t: LA.norm(t, ord=ord, axis=axis, keepdims=keep), x)


@pytest.mark.parametrize("ord", ["euclidean", "fro", 1, np.inf])
def test_matrix_norms(ord: Any) -> None:
    x = values((2, 3, 4), seed=6)  # continuous draws: no ties among row or column sums
    check(lambda t: LA.norm(t, ord=ord, axis=[-2, -1]), x)


def _distinct(shape: tuple, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).permutation(int(np.prod(shape))).reshape(shape) / 10.0


@SETTINGS
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), data=st.data())
def test_top_k_and_sort(shape: tuple, data: Any) -> None:
    x = _distinct(shape)
    k = data.draw(st.integers(0, shape[-1]))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    direction = data.draw(st.sampled_from(["ASCENDING", "DESCENDING"]))
    check(lambda t: S.top_k(t, k).values, x)
    check(lambda t: S.sort(t, axis=axis, direction=direction), x)


@SETTINGS
@given(rows=st.integers(1, 4), data=st.data())
def test_gather_nd_and_scatter_nd(rows: int, data: Any) -> None:
    idx = np.array(data.draw(st.lists(st.tuples(st.integers(0, rows - 1), st.integers(0, 2)), min_size=1,
                                      max_size=4)))
    x = values((rows, 3, 2))
    check(lambda t: S.gather_nd(t, EagerTensor(idx)), x)
    upd = values((len(idx), 2), seed=4)
    check(lambda u: S.scatter_nd(EagerTensor(idx), u, EagerTensor(np.array([rows, 3, 2]))), upd)


@SETTINGS
@given(ids=st.lists(st.integers(-1, 2), min_size=1, max_size=5))
def test_segment_sums_and_boolean_mask(ids: list) -> None:
    x = values((len(ids), 2))
    sorted_ids = EagerTensor(np.sort(np.maximum(ids, 0)))
    check(lambda t: S.segment_sum(t, sorted_ids), x)
    check(lambda t: S.unsorted_segment_sum(t, EagerTensor(np.array(ids)), 3), x)
    check(lambda t: S.boolean_mask(t, EagerTensor(np.array(ids) >= 0)), x)


@SETTINGS
@given(stride=st.integers(1, 2), padding=st.sampled_from(["SAME", "VALID"]), mult=st.integers(1, 2),
       k=st.integers(1, 3))
def test_conv1d_and_depthwise(stride: int, padding: str, mult: int, k: int) -> None:
    check(lambda x, w: CV.conv1d_v2(x, w, stride, padding), values((2, 5, 2), seed=1), values((k, 2, 3), seed=2))
    check(lambda x, w: CV.depthwise_conv2d_v2(x, w, [1, stride, stride, 1], padding),
          values((1, 4, 4, 2), seed=3), values((k, k, 2, mult), seed=4))


@SETTINGS
@given(h=st.integers(1, 6), w=st.integers(1, 6), mode=st.sampled_from(["align", "half", "legacy"]))
def test_image_resize(h: int, w: int, mode: str) -> None:
    """Nearest keeps float64 (bilinear returns float32 like TF; la13_image_resize checks it on TF)."""
    align, half = mode == "align", mode == "half"
    check(lambda t: IM.resize_nearest_neighbor(t, [h, w], align_corners=align, half_pixel_centers=half),
          values((1, 3, 4, 2)))


@SETTINGS
@given(ids=st.lists(st.integers(-1, 2), min_size=1, max_size=5))
def test_segment_extremes_and_means(ids: list) -> None:
    x = _distinct((len(ids), 2), 7)
    sorted_ids = EagerTensor(np.sort(np.maximum(ids, 0)))
    unsorted = EagerTensor(np.array(ids))
    for fn in (SG.segment_max, SG.segment_min, SG.segment_mean):
        check(lambda t, fn=fn: fn(t, sorted_ids), x)
    present = EagerTensor(np.unique([i for i in ids if i >= 0]))  # empty max/min segments hold +-float max
    for fn in (SG.unsorted_segment_max, SG.unsorted_segment_min, SG.unsorted_segment_mean):
        check(lambda t, fn=fn: A.gather(fn(t, unsorted, 3), present), x)
