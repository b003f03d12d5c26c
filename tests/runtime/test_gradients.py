"""Every differentiable op's registered gradient against a float64 central difference.

Shapes (and broadcasting between operands) come from hypothesis; values are kept away from
points where an op is not differentiable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.tape import GradientTape
from runtime.tensor import EagerTensor

SETTINGS = settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))


def numeric_grads(f: Callable, xs: list[np.ndarray], w: np.ndarray, eps: float = 1e-6) -> list[np.ndarray]:
    out = []
    for k, x in enumerate(xs):
        g = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            up = [a.copy() for a in xs]
            dn = [a.copy() for a in xs]
            up[k][idx] += eps
            dn[k][idx] -= eps
            fu = np.sum(np.asarray(f(*[EagerTensor(a) for a in up])) * w)
            fd = np.sum(np.asarray(f(*[EagerTensor(a) for a in dn])) * w)
            g[idx] = (fu - fd) / (2 * eps)
        out.append(g)
    return out


def check(f: Callable, *xs: np.ndarray, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    ts = [EagerTensor(x) for x in xs]
    with GradientTape() as tape:
        tape.watch(ts)
        y = f(*ts)
        w = np.random.default_rng(0).uniform(0.5, 1.5, np.shape(np.asarray(y)))
        target = M.reduce_sum(M.multiply(y, EagerTensor(w)))
    grads = tape.gradient(target, ts)
    expected = numeric_grads(f, list(xs), w)
    for g, e in zip(grads, expected):
        got = np.zeros_like(e) if g is None else np.asarray(g)
        np.testing.assert_allclose(got, e, rtol=rtol, atol=atol)


dims = st.integers(1, 3)
shapes = st.lists(dims, min_size=0, max_size=3).map(tuple)


@st.composite
def broadcast_pair(draw: Any) -> tuple[tuple, tuple]:
    a = draw(st.lists(dims, min_size=1, max_size=3))
    b = [draw(st.sampled_from([d, 1])) for d in a]
    b = b[draw(st.integers(0, len(b) - 1)):]
    return (tuple(a), tuple(b)) if draw(st.booleans()) else (tuple(b), tuple(a))


def values(shape: tuple, lo: float = -2.0, hi: float = 2.0, seed: int = 1) -> np.ndarray:
    return np.asarray(np.random.default_rng(seed + len(shape)).uniform(lo, hi, shape))


def away_from_zero(shape: tuple, seed: int = 2) -> np.ndarray:
    x = np.asarray(values(shape, 0.3, 2.0, seed))
    return np.asarray(x * np.where(np.random.default_rng(seed).random(shape) < 0.5, -1, 1))


BINARY = {
    "add": M.add, "subtract": M.subtract, "multiply": M.multiply, "truediv": M.truediv,
    "maximum": M.maximum, "minimum": M.minimum, "squared_difference": M.squared_difference,
}


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(shapes=broadcast_pair())
def test_binary_broadcasting(name: str, shapes: tuple) -> None:
    a = values(shapes[0], seed=3)
    b = away_from_zero(shapes[1], seed=5) if name == "truediv" else values(shapes[1], seed=7) + 0.05
    check(BINARY[name], a, b)


@SETTINGS
@given(shapes=broadcast_pair())
def test_pow(shapes: tuple) -> None:
    check(M.pow, values(shapes[0], 0.5, 2.0, 3), values(shapes[1], -1.5, 1.5, 4))


UNARY_ANY = {"negative": M.negative, "square": M.square, "exp": M.exp, "sigmoid": M.sigmoid, "tanh": M.tanh,
             "softplus": M.softplus, "sin": M.sin, "cos": M.cos, "identity": M.identity,
             "elu": M.elu, "selu": M.selu, "softsign": M.softsign, "expm1": M.expm1}
UNARY_NONZERO = {"abs": M.abs, "relu": M.relu, "reciprocal": M.reciprocal, "relu6": M.relu6,
                 "leaky_relu": M.leaky_relu}
UNARY_POSITIVE = {"sqrt": M.sqrt, "rsqrt": M.rsqrt, "log": M.log, "log1p": M.log1p}


@pytest.mark.parametrize("name", sorted(UNARY_ANY) + sorted(UNARY_NONZERO) + sorted(UNARY_POSITIVE))
@SETTINGS
@given(shape=shapes)
def test_unary(name: str, shape: tuple) -> None:
    if name in UNARY_POSITIVE:
        fn, x = UNARY_POSITIVE[name], values(shape, 0.3, 3.0)
    elif name in UNARY_NONZERO:
        fn, x = UNARY_NONZERO[name], away_from_zero(shape)
        if name == "relu6":
            x = np.asarray(x * 4)
    else:
        fn, x = UNARY_ANY[name], values(shape)
    check(fn, x)


@st.composite
def reduce_case(draw: Any) -> tuple[tuple, Any, bool]:
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    axis = draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1),
                          st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=len(shape), unique=True)))
    return shape, axis, draw(st.booleans())


REDUCTIONS = {"reduce_sum": M.reduce_sum, "reduce_mean": M.reduce_mean, "reduce_max": M.reduce_max,
              "reduce_min": M.reduce_min, "reduce_prod": M.reduce_prod, "reduce_logsumexp": M.reduce_logsumexp}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@SETTINGS
@given(case=reduce_case())
def test_reductions(name: str, case: tuple) -> None:
    shape, axis, keep = case
    x = np.random.default_rng(11).permutation(np.arange(1, int(np.prod(shape)) + 1)).reshape(shape) / 4.0
    check(lambda t: REDUCTIONS[name](t, axis, keepdims=keep), x)


@SETTINGS
@given(m=dims, k=dims, n=dims, ta=st.booleans(), tb=st.booleans())
def test_matmul(m: int, k: int, n: int, ta: bool, tb: bool) -> None:
    a = values((k, m) if ta else (m, k), seed=1)
    b = values((n, k) if tb else (k, n), seed=2)
    check(lambda x, y: M.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b)


@SETTINGS
@given(rows=dims, classes=st.integers(2, 4), axis=st.sampled_from([-1, 0]))
def test_softmax_family(rows: int, classes: int, axis: int) -> None:
    x = values((rows, classes))
    check(lambda t: N.softmax(t, axis=axis), x)
    check(lambda t: N.log_softmax(t, axis=axis), x)


@SETTINGS
@given(rows=dims, classes=st.integers(2, 4))
def test_cross_entropies(rows: int, classes: int) -> None:
    logits = values((rows, classes), seed=3)
    labels = np.random.default_rng(4).dirichlet(np.ones(classes), rows)
    check(lambda lo, la: N.softmax_cross_entropy_with_logits_v2(la, lo), logits, labels)
    sparse = np.random.default_rng(5).integers(0, classes, rows)
    check(lambda lo: N.sparse_softmax_cross_entropy_with_logits(labels=EagerTensor(sparse), logits=lo), logits)
    z = np.random.default_rng(6).random((rows, classes))
    check(lambda lo: N.sigmoid_cross_entropy_with_logits(labels=EagerTensor(z), logits=lo), logits)
    check(M.l2_loss, logits)


def test_v1_cross_entropy_blocks_label_gradient() -> None:
    logits = EagerTensor(values((2, 3)))
    labels = EagerTensor(np.random.default_rng(4).dirichlet(np.ones(3), 2))
    with GradientTape(persistent=True) as tape:
        tape.watch([logits, labels])
        v1 = N.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        v2 = N.softmax_cross_entropy_with_logits_v2(labels, logits)
    assert tape.gradient(v1, labels) is None
    assert tape.gradient(v2, labels) is not None


@SETTINGS
@given(shape=st.lists(st.integers(1, 3), min_size=2, max_size=3).map(tuple), data=st.data())
def test_shape_ops(shape: tuple, data: Any) -> None:
    x = values(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    check(lambda t: A.transpose(t, perm), x)
    check(lambda t: A.reshape(t, [-1]), x)
    check(lambda t: A.expand_dims(t, 1), x)
    check(lambda t: A.squeeze(A.expand_dims(t, 0), [0]), x)
    reps = [data.draw(st.integers(1, 2)) for _ in shape]
    check(lambda t: A.tile(t, reps), x)
    pads = [[data.draw(st.integers(0, 1)), data.draw(st.integers(0, 1))] for _ in shape]
    check(lambda t: A.pad(t, pads), x)
    exclusive, reverse = data.draw(st.booleans()), data.draw(st.booleans())
    check(lambda t: M.cumsum(t, axis=1, exclusive=exclusive, reverse=reverse), x)
    check(lambda t: A.broadcast_to(t[:1], shape), x)
    check(lambda t: A.reverse(t, [0]), x)


@SETTINGS
@given(shape=st.lists(st.integers(1, 3), min_size=2, max_size=3).map(tuple), n=st.integers(1, 3))
def test_concat_stack_split(shape: tuple, n: int) -> None:
    xs = [values(shape, seed=i) for i in range(n)]
    check(lambda *ts: A.concat(list(ts), axis=1), *xs)
    check(lambda *ts: A.stack(list(ts), axis=0), *xs)
    check(lambda t: A.unstack(t, axis=0)[-1], xs[0])
    big = values((shape[0], 3 * n))
    check(lambda t: A.split(t, n, axis=1)[0] * 2.0 + A.split(t, n, axis=1)[-1], big)


@SETTINGS
@given(shape=st.lists(st.integers(2, 4), min_size=2, max_size=3).map(tuple), data=st.data())
def test_slicing_and_gather(shape: tuple, data: Any) -> None:
    x = values(shape)
    check(lambda t: t[:, 1], x)
    check(lambda t: t[1:, ::2], x)
    check(lambda t: t[..., -1], x)
    idx = np.asarray(data.draw(st.lists(st.integers(0, shape[0] - 1), min_size=1, max_size=4)))
    check(lambda t: A.gather(t, EagerTensor(idx)), x)
    check(lambda t: A.gather(t, EagerTensor(idx % shape[1]), axis=1), x)


def test_where_clip_cast() -> None:
    x, y = values((2, 3), seed=1), values((2, 3), seed=2)
    cond = EagerTensor(x > 0)
    check(lambda a, b: M.where(cond, a, b), x, y)
    check(lambda a: M.clip_by_value(a, -0.5, 0.7), away_from_zero((2, 3)) * 0.3 + 0.11)
    t = EagerTensor(x)
    with GradientTape() as tape:
        tape.watch(t)
        total = M.reduce_sum(M.multiply(M.cast(M.cast(t, "float32"), "float64"), 3.0))
    np.testing.assert_array_equal(np.asarray(tape.gradient(total, t)), np.full(x.shape, 3.0))
    check(lambda a, b: M.clip_by_global_norm([a, b], 1.0)[0][0], x, y)


@SETTINGS
@given(n=st.integers(1, 2), hw=st.integers(3, 5), cin=st.integers(1, 2), cout=st.integers(1, 2),
       k=st.integers(1, 3), stride=st.integers(1, 2), padding=st.sampled_from(["SAME", "VALID"]))
def test_conv_pool_bias(n: int, hw: int, cin: int, cout: int, k: int, stride: int, padding: str) -> None:
    x = values((n, hw, hw, cin), seed=1)
    w = values((k, k, cin, cout), seed=2)
    check(lambda a, b: N.conv2d(a, b, strides=stride, padding=padding), x, w)
    distinct = np.random.default_rng(3).permutation(x.size).reshape(x.shape) / 10.0
    check(lambda a: N.max_pool(a, k, stride, padding), distinct)
    check(lambda a: N.avg_pool(a, k, stride, padding), x)
    check(lambda a, b: N.bias_add(a, b), x, values((cin,), seed=4))


def test_second_order_through_registered_gradients() -> None:
    x = EagerTensor(np.array([0.3, -1.2, 2.0]))
    for f, d2 in [(lambda t: M.pow(t, 3.0), lambda v: 6 * v), (M.tanh, lambda v: -2 * np.tanh(v) * (1 - np.tanh(v) ** 2)),
                  (M.sigmoid, lambda v: (s := 1 / (1 + np.exp(-v))) * (1 - s) * (1 - 2 * s))]:
        with GradientTape() as t2:
            t2.watch(x)
            with GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            g = t1.gradient(y, x)
        np.testing.assert_allclose(np.asarray(t2.gradient(g, x)), d2(np.asarray(x)), rtol=1e-6)


@SETTINGS
@given(depth=st.integers(1, 6), radius=st.integers(0, 3), beta=st.sampled_from([0.5, 0.75]))
def test_local_response_normalization(depth: int, radius: int, beta: float) -> None:
    from runtime.ops.normalization import local_response_normalization

    x = values((2, 1, 2, depth), seed=depth)
    check(lambda t: local_response_normalization(t, radius, bias=1.5, alpha=0.3, beta=beta), x)


@SETTINGS
@given(rows=dims, cols=dims, batch=st.integers(0, 2))
def test_trace_and_diag_part(rows: int, cols: int, batch: int) -> None:
    from runtime.ops import linalg

    x = values((batch + 1,) * (batch > 0) + (rows, cols), seed=rows * 3 + cols)
    check(linalg.matrix_diag_part, x)
    check(linalg.trace, x)


def test_dynamic_slice() -> None:
    from runtime.ops.registry import apply

    begin, size = EagerTensor(np.array([1, 0], np.int32)), EagerTensor(np.array([2, -1], np.int32))
    check(lambda t: apply("Slice", [t, begin, size]), values((3, 4)))


@SETTINGS
@given(hw=st.integers(1, 3), stride=st.integers(1, 2), k=st.integers(1, 3), padding=st.sampled_from(["SAME", "VALID"]))
def test_conv2d_transpose(hw: int, stride: int, k: int, padding: str) -> None:
    from runtime.ops.conv_transpose import conv2d_transpose, output_length

    out = output_length(hw, k, stride, padding)
    shape = [1, out, out, 2]
    check(lambda x, w: conv2d_transpose(x, w, shape, strides=stride, padding=padding),
          values((1, hw, hw, 3), seed=1), values((k, k, 2, 3), seed=2))


def test_reverse_sequence() -> None:
    from runtime.rnn import reverse_sequence

    x = np.random.default_rng(3).normal(size=(3, 4, 2))
    check(lambda v: reverse_sequence(v, [4, 1, 3], seq_axis=1, batch_axis=0), x)
    check(lambda v: reverse_sequence(v, [2, 0, 4], seq_axis=0, batch_axis=1), x.transpose(1, 0, 2).copy())


@pytest.mark.parametrize("cell_name", ["BasicRNNCell", "GRUCell", "BasicLSTMCell", "LSTMCell", "peephole"])
def test_gradient_through_time(cell_name: str) -> None:
    """dynamic_rnn unrolls into registered ops: d(outputs, state)/d(inputs, initial state)."""
    from runtime import nest, rnn
    from runtime.variable_scope import variable_scope

    rng = np.random.default_rng(4)
    x = rng.normal(size=(2, 3, 2))
    cell = rnn.LSTMCell(3, use_peepholes=True, num_proj=2) if cell_name == "peephole" else getattr(rnn, cell_name)(3)
    h_size = nest.flatten(cell.state_size)
    h0 = [rng.normal(size=(2, n)) * 0.5 for n in h_size]
    with variable_scope(f"grad_{cell_name}", dtype=np.float64):
        rnn.dynamic_rnn(cell, EagerTensor(x), initial_state=nest.pack_sequence_as(
            cell.state_size, [EagerTensor(h) for h in h0]))

    def run(xs: Any, *states: Any) -> Any:
        out, st = rnn.dynamic_rnn(cell, xs, initial_state=nest.pack_sequence_as(cell.state_size, list(states)),
                                  sequence_length=[3, 2])
        return A.concat([A.reshape(out, [2, -1])] + nest.flatten(st), 1)

    check(run, x, *h0)


@pytest.mark.parametrize("loss", ["nce", "softmax"])
def test_sampled_losses(loss: str) -> None:
    """Given samples, the sampled losses are smooth in weights, biases and inputs (gathered rows
    get their gradients densely, duplicates summed)."""
    from runtime import sampled

    rng = np.random.default_rng(5)
    w, b, x = rng.normal(size=(6, 3)), rng.normal(size=(6,)), rng.normal(size=(4, 3))
    labels = np.array([[1, 3], [4, 0], [2, 2], [5, 1]])
    values = (np.array([2, 0, 5]), np.full((4, 2), 0.3), np.array([0.4, 0.7, 0.2]))
    fn = sampled.nce_loss if loss == "nce" else sampled.sampled_softmax_loss
    check(lambda w_, b_, x_: fn(w_, b_, labels, x_, 3, 6, num_true=2, sampled_values=values), w, b, x)
