"""No differentiable op escapes a gradient check, and gradients of gradients are right too.

`test_gradients.py` explores shapes per op family; this module holds one fixed case per family
and asks the registry which op types those cases touched. A new op with a gradient fails here
until a case exercises it. Each case is also checked to second order — the gradient of
``sum(grad(f) * v)`` against a central difference of the first-order gradient — which is the
only way the gradient ops themselves (Conv2DBackpropInput, TileGrad, ...) get exercised.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import runtime.api  # noqa: F401  (registers every op)
from runtime.ops import array as A
from runtime.ops import checks as CH
from runtime.ops import conv_variants as CV
from runtime.ops import linalg as LA
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.ops import normalization as NORM
from runtime.ops import search as S
from runtime.ops import segments as SG
from runtime.ops.registry import NO_GRADIENT, REGISTRY, apply
from runtime.rnn import reverse_sequence
from runtime.tape import GradientTape
from runtime.tensor import EagerTensor
from tests.runtime.test_gradients import away_from_zero, check, values

Case = tuple[Callable, list[np.ndarray]]

_DISTINCT = np.random.default_rng(3).permutation(2 * 4 * 4 * 2).reshape(2, 4, 4, 2) / 10.0
_LABELS = np.random.default_rng(4).dirichlet(np.ones(3), 2)


_EYE = EagerTensor(np.eye(3))


def _spd(a: EagerTensor) -> EagerTensor:
    """A symmetric positive definite matrix built from ``a`` (Cholesky and friends need one)."""
    return M.matmul(a, a, transpose_b=True) + 2.0 * _EYE


def _strided(t: EagerTensor) -> EagerTensor:
    return t[1:, ::2]


#: One representative call per op family; several families touch several op types.
CASES: dict[str, Case] = {
    "binary": (lambda a, b: M.squared_difference(
        M.maximum(M.add(a, b), M.minimum(M.subtract(a, b), M.multiply(a, b))), M.truediv(a, b)),
        [values((2, 3), seed=3), away_from_zero((3,), seed=5)]),
    "pow": (lambda a, b: M.pow(a, b), [values((2, 3), 0.5, 2.0, 3), values((3,), -1.5, 1.5, 4)]),
    "floormod": (lambda a: M.floormod(a, 0.7), [values((2, 3), 0.05, 0.6, 8)]),
    "unary_any": (lambda t: M.add_n([M.negative(t), M.square(t), M.exp(t), M.sigmoid(t), M.tanh(t),
                                     M.softplus(t), M.sin(t), M.cos(t), M.identity(t), M.elu(t),
                                     M.selu(t), M.softsign(t), M.expm1(t), M.tan(t * 0.3)]),
                  [values((2, 3))]),
    "unary_nonzero": (lambda t: M.add_n([M.abs(t), M.relu(t), M.reciprocal(t), M.relu6(t * 4),
                                         M.sign(t) * t]),
                      [away_from_zero((2, 3))]),
    "unary_positive": (lambda t: M.add_n([M.sqrt(t), M.rsqrt(t), M.log(t), M.log1p(t)]),
                       [values((2, 3), 0.3, 3.0)]),
    "reductions": (lambda t: M.reduce_sum(t, 0) + M.reduce_mean(t, 1, keepdims=True)
                   + M.reduce_max(t, 0) + M.reduce_min(t, 0) + M.reduce_prod(t, 0),
                   [np.random.default_rng(11).permutation(np.arange(1, 7)).reshape(2, 3) / 4.0]),
    "print": (lambda t: M.multiply(CH.Print(t, [t], message="t: "), t), [values((2, 3))]),
    "matmul": (lambda a, b: M.matmul(a, b, transpose_b=True), [values((2, 3), seed=1), values((4, 3), seed=2)]),
    "softmax": (lambda t: N.softmax(t) + N.log_softmax(t, axis=0), [values((2, 3))]),
    "cross_entropy": (lambda lo: N.softmax_cross_entropy_with_logits_v2(EagerTensor(_LABELS), lo)
                      + N.sparse_softmax_cross_entropy_with_logits(labels=EagerTensor(np.array([2, 0])),
                                                                   logits=lo),
                      [values((2, 3), seed=3)]),
    "shape": (lambda t: M.add_n([A.reshape(A.transpose(t, [1, 0]), [2, 3]),
                                 A.squeeze(A.expand_dims(t, 0), [0]),
                                 A.tile(t, [1, 2])[:, :3], A.pad(t, [[0, 0], [1, 0]])[:, 1:],
                                 M.cumsum(t, axis=1), A.broadcast_to(t[:1], [2, 3]),
                                 A.reverse(t, [0])]),
              [values((2, 3))]),
    "concat": (lambda a, b: A.concat([a, b], axis=1)[:, 1:4] + A.stack([a, b])[1]
               + A.unstack(a, axis=0)[-1] + A.split(A.concat([a, b], 1), 2, axis=1)[1],
               [values((2, 3), seed=1), values((2, 3), seed=2)]),
    "slicing": (lambda t: M.reduce_sum(_strided(t)) + A.gather(t, EagerTensor(np.array([2, 0, 2])))[1]
                + t[..., -1],
                [values((3, 3))]),
    "where_clip_cast": (lambda a, b: M.where(EagerTensor(np.array([[True, False], [False, True]])), a, b)
                        + M.clip_by_value(a, -0.5, 0.7),
                        [np.array([[0.1, -0.9], [1.3, 0.4]]), values((2, 2), seed=2)]),
    "conv": (lambda x, w: N.conv2d(x, w, strides=2, padding="SAME"),
             [values((2, 4, 4, 2), seed=1), values((3, 3, 2, 2), seed=2)]),
    "pool_bias": (lambda x, b: N.max_pool(N.bias_add(x, b), 2, 2, "VALID") + N.avg_pool(x, 2, 2, "SAME"),
                  [_DISTINCT, values((2,), seed=4)]),
    "lrn": (lambda x: NORM.local_response_normalization(x, depth_radius=1, bias=1.0, alpha=0.5, beta=0.75),
            [values((1, 2, 2, 3), seed=6)]),
    # tf.slice with a fed begin/size (a constant one is a strided slice).
    "slice": (lambda t: apply("Slice", [t, EagerTensor(np.array([1, 0], np.int32)),
                                        EagerTensor(np.array([1, -1], np.int32))]),
              [values((3, 3))]),
    "placeholder_with_default": (lambda t: A.placeholder_with_default(t, [2, 3]) * 2.0, [values((2, 3))]),
    "diagonals_bands": (lambda t: M.add_n([LA.matrix_diag(LA.matrix_diag_part(t)), LA.band_part(t, 1, 0),
                                           LA.matrix_set_diag(t, t[0] * 2.0), LA.matrix_transpose(t),
                                           LA.tensor_diag(LA.tensor_diag_part(t))]),
                        [values((3, 3))]),
    "inverse_det_solve": (lambda a, b: M.reduce_sum(LA.inv(_spd(a))) + LA.det(_spd(a))
                          + M.reduce_sum(LA.solve(_spd(a), b)) + M.reduce_sum(LA.solve(a + 3.0 * _EYE, b, adjoint=True))
                          + M.reduce_sum(LA.inv(a + 3.0 * _EYE, adjoint=True)),
                          [values((3, 3), seed=1), values((3, 2), seed=2)]),
    "cholesky": (lambda a: LA.cholesky(_spd(a)), [values((3, 3), seed=4)]),
    "norms": (lambda t: LA.norm(t) + LA.norm(t, ord=1, axis=1) + LA.norm(t, ord=np.inf, axis=[0, 1])
              + LA.norm(t, axis=[0, 1], keepdims=True)[0] * LA.norm(t, ord=np.inf, axis=0)[:2],
              [np.array([[0.3, -1.2, 0.7], [1.5, 0.2, -0.4]])]),
    "einsum_tensordot": (lambda a, b: M.reduce_sum(LA.einsum("ij,jk->ik", a, b)) + LA.einsum("ij,kj->k", a, b[:, :3])[0]
                         + M.reduce_sum(LA.einsum("...j,jk->...k", a, b)) + M.reduce_sum(LA.tensordot(a, b, 1))
                         + LA.einsum("ii->", b[:, :3]) * LA.einsum("ij,jj->i", a, b[:, 1:])[1],
                         [values((2, 3), seed=1), values((3, 4), seed=2)]),
    "top_k_sort": (lambda t: M.reduce_sum(S.top_k(t, 2).values * 3.0) + M.reduce_sum(S.sort(t, axis=0) * t)
                   + M.reduce_sum(S.sort(t, direction="DESCENDING"))
                   # top_k's second-order gradient op, reached directly
                   + M.reduce_sum(apply("TakeAlongLastAxis", [t, EagerTensor(np.array([[3, 0]] * 4))])),
                   [_DISTINCT[0, :, :, 0]]),
    "gather_scatter_nd": (lambda t: M.reduce_sum(S.scatter_nd(EagerTensor(np.array([[1], [0], [1]])),
                                                              S.gather_nd(t, EagerTensor(np.array([[0], [2], [2]]))),
                                                              EagerTensor(np.array([3, 2]))) * t),
                          [values((3, 2))]),
    "segments_mask": (lambda t: M.reduce_sum(S.segment_sum(t, EagerTensor(np.array([0, 0, 2]))) * 2.0)
                      + M.reduce_sum(S.unsorted_segment_sum(t * t, EagerTensor(np.array([1, -1, 1])), 2))
                      + M.reduce_sum(S.boolean_mask(t, EagerTensor(np.array([True, False, True]))) ** 2.0),
                      [values((3, 2))]),
    "segment_extremes_means": (lambda t: M.reduce_sum(SG.segment_max(t, EagerTensor(np.array([0, 0, 2, 2]))))
                               + M.reduce_sum(SG.unsorted_segment_min(t, EagerTensor(np.array([1, -1, 1, 0])), 3)
                                              [:2] * 2.0)
                               + M.reduce_sum(SG.segment_min(t, EagerTensor(np.array([0, 1, 1, 1]))) ** 2.0)
                               + M.reduce_sum(SG.unsorted_segment_max(t * t, EagerTensor(np.array([0, 0, 1, 1])), 2))
                               + M.reduce_sum(SG.segment_mean(t, EagerTensor(np.array([0, 0, 1, 1]))) ** 2.0)
                               + M.reduce_sum(SG.unsorted_segment_mean(t, EagerTensor(np.array([1, 1, 0, -1])), 2)),
                               [_DISTINCT[0, :, :, 0] + 0.05]),
    "conv1d_depthwise": (lambda x, w, s, k: M.reduce_sum(CV.depthwise_conv2d_v2(x, w, [1, 2, 2, 1], "SAME"))
                         + M.reduce_sum(CV.conv1d_v2(s, k, 2, "VALID")),
                         [values((1, 4, 4, 2), seed=1), values((2, 2, 2, 2), seed=2), values((1, 5, 2), seed=3),
                          values((2, 2, 3), seed=4)]),
    "reverse_sequence": (lambda t: reverse_sequence(t, [3, 1], seq_axis=1, batch_axis=0), [values((2, 3, 2))]),
    # FusedBatchNormV3 is float32 for programs; its kernel also runs float64, which a central
    # difference needs. Training (through the batch statistics) and inference (fixed ones).
    "fused_batch_norm": (lambda x, s, o: apply("FusedBatchNormV3", [x, s, o, EagerTensor(np.zeros(0)), EagerTensor(np.zeros(0))],
                                               {"epsilon": 0.01, "exponential_avg_factor": 1.0, "data_format": "NHWC",
                                                "is_training": True})[0] * 2.0
                         + apply("FusedBatchNormV3", [x, s, o, EagerTensor(np.array([0.2, -0.1, 0.4])),
                                                      EagerTensor(np.array([1.5, 0.6, 0.9]))],
                                 {"epsilon": 0.01, "exponential_avg_factor": 1.0, "data_format": "NHWC",
                                  "is_training": False})[0],
                         [values((2, 2, 2, 3), seed=1), values((3,), 0.5, 1.5, 2), values((3,), seed=3)]),
}


def _op_types(fn: Callable, xs: list[np.ndarray]) -> set[str]:
    """The op types a case runs, and the types its gradient computation runs."""
    ts = [EagerTensor(x) for x in xs]
    with GradientTape() as outer:
        outer.watch(ts)
        with GradientTape() as inner:
            inner.watch(ts)
            y = M.reduce_sum(fn(*ts))
        grads = inner.gradient(y, ts)
    seen = {op.type for op in inner._ops} | {op.type for op in outer._ops}
    assert all(g is not None for g in grads)
    return seen


#: Differentiable ops checked elsewhere, and why not here.
CHECKED_ELSEWHERE = {
    "Cast": "float32 rounding defeats a central difference; test_where_clip_cast checks it exactly",
    "PrintV2": "an identity on its input for gradients; printing is covered by the program tests",
}


def _differentiable() -> list[str]:
    return sorted(name for name, op in REGISTRY.items()
                  if op.grad not in (None, NO_GRADIENT) and name not in CHECKED_ELSEWHERE)


@pytest.mark.parametrize("family", sorted(CASES))
def test_case_first_order(family: str) -> None:
    fn, xs = CASES[family]
    check(fn, *xs)


#: Families whose gradient ops TF itself does not differentiate.
FIRST_ORDER_ONLY = {"lrn": "TF registers no gradient for LRNGrad"}


@pytest.mark.parametrize("family", sorted(set(CASES) - set(FIRST_ORDER_ONLY)))
def test_case_second_order(family: str) -> None:
    """The gradient of <grad f(x), v> against central differences of grad f."""
    fn, xs = CASES[family]
    v = [np.random.default_rng(9 + i).uniform(0.5, 1.5, x.shape) for i, x in enumerate(xs)]

    def first_order(*ts: EagerTensor) -> EagerTensor:
        with GradientTape() as tape:
            tape.watch(list(ts))
            y = M.reduce_sum(fn(*ts))
        grads = tape.gradient(y, list(ts))
        return M.add_n([M.reduce_sum(M.multiply(g, EagerTensor(w))) for g, w in zip(grads, v)])

    check(first_order, *xs, rtol=1e-4, atol=1e-5)


def test_every_differentiable_op_has_a_check() -> None:
    seen: set[str] = set()
    for fn, xs in CASES.values():
        seen |= _op_types(fn, xs)
    missing = [name for name in _differentiable() if name not in seen]
    assert not missing, f"no gradient check exercises: {', '.join(missing)}"
