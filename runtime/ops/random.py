"""Random ops. Each op owns a NumPy Generator seeded by (global seed, op seed or creation order),
so a program's random numbers do not depend on anything but its own structure."""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import convert_to_tensor
from runtime.ops import math as m
from runtime.ops.registry import apply, not_differentiable, register
from runtime.tensor import SymbolicTensor, Tensor


def _seed_key(op_seed: Any, kind: str = "", shape: Any = None) -> list[int]:
    g = context.STATE.global_seed
    graph = None if context.executing_eagerly() else context.get_default_graph()
    if op_seed is None and graph is not None and g is not None:
        # TF's get_seed: a graph's n-th unseeded op takes op seed n, as if given seed=n.
        op_seed = graph.next_seed()
    if op_seed is not None:
        return [0 if g is None else int(g), 1, int(op_seed)]
    if g is not None:  # eager under a global seed: TF takes op seeds from a generator
        counter = context.STATE.eager_seed_counter
        context.STATE.eager_seed_counter += 1
        return [int(g), 2, counter]
    # Unseeded and no global seed: numbered among the draws of the same kind and static shape
    # in their graph, function or the eager context, so moving other random ops around (dropout
    # from the graph into a step function) leaves a weight's initial draw where it was.
    if graph is not None:
        graph.next_seed()
    counts = context.STATE.eager_draw_counts if graph is None else graph.draw_counts
    key = f"{kind}:{_static_dims(shape)}"
    n = counts.get(key, 0)
    counts[key] = n + 1
    return [0, 3, zlib.crc32(key.encode()), n]


def _static_dims(shape: Any) -> tuple[int, ...] | None:
    """A draw's shape as known when it is built, unknown dims -1 (a graph shape tensor's two
    probes agree on its static dims)."""
    if isinstance(shape, SymbolicTensor):
        if shape._probe is None:
            return None
        a, b = shape._probe
        return tuple(int(x) if x == y else -1 for x, y in zip(np.ravel(a), np.ravel(b)))
    return tuple(int(d) for d in np.ravel(shape.numpy())) if isinstance(shape, Tensor) else None


def _truncated(rng: np.random.Generator, shape: tuple, dt: Any) -> np.ndarray:
    out = rng.standard_normal(shape).astype(dt)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum())).astype(dt)
        bad = np.abs(out) > 2
    return out


def _gated(inputs: list) -> list:
    """The op's inputs, plus the predicate of the graph cond branch it is built in: TF runs only
    the taken branch, so an op in a branch not taken draws nothing and its stream stays put."""
    if context.executing_eagerly():
        return inputs
    from runtime.control_flow import cond_gate

    gate = cond_gate()
    return inputs if gate is None else [*inputs, gate]


def _generator(op_type: str, attrs: dict) -> np.random.Generator:
    """The op's generator. Eagerly, TF runs every call of an op type with the same explicit
    seed on one cached kernel, whose stream goes on from call to call (`tf.random.uniform([1],
    seed=1)` twice draws two numbers); the cache empties when the global seed is set."""
    seed = attrs["seed"]
    if not (context.executing_eagerly() and seed[1] == 1) or context.STATE.graph_kernels:
        return np.random.default_rng(seed)
    key = (op_type, attrs["dtype"].name, *seed)
    cache = context.STATE.eager_kernels
    if key not in cache:
        cache[key] = np.random.default_rng(seed)
    return cache[key]


def _make(op_type: str, sample: Any) -> Any:
    def make(attrs: dict) -> Any:
        rng = _generator(op_type, attrs)
        dt = attrs["dtype"].np

        def kernel(shape: Any, *gate: Any) -> np.ndarray:
            dims = tuple(int(d) for d in shape)
            return sample(rng, dims, dt) if not gate or bool(gate[0]) else np.zeros(dims, dt)

        return kernel

    return make


def _stand_in(attrs: dict) -> Any:
    """Zeros of the drawn shape: static shapes without consuming random numbers."""
    dt = attrs["dtype"].np
    return lambda shape, *_: np.zeros(tuple(int(d) for d in shape), dtype=dt)


register("RandomStandardNormal", _make("RandomStandardNormal", lambda r, s, dt: r.standard_normal(s).astype(dt)),
         stateful=True, probe=_stand_in)
register("RandomUniform", _make("RandomUniform", lambda r, s, dt: r.random(s).astype(dt)), stateful=True,
         probe=_stand_in)
register("TruncatedNormal", _make("TruncatedNormal", _truncated), stateful=True, probe=_stand_in)


def _uniform_int_make(attrs: dict) -> Any:
    rng = _generator("RandomUniformInt", attrs)
    dt = attrs["dtype"].np

    def kernel(shape: Any, lo: Any, hi: Any, *gate: Any) -> np.ndarray:
        dims = tuple(int(d) for d in shape)
        return rng.integers(lo, hi, dims).astype(dt) if not gate or bool(gate[0]) else np.zeros(dims, dt)

    return kernel


register("RandomUniformInt", _uniform_int_make, stateful=True, probe=_stand_in)
not_differentiable("RandomStandardNormal", "RandomUniform", "TruncatedNormal", "RandomUniformInt")


def _shape_tensor(shape: Any) -> Tensor:
    from runtime.ops.array import _shape_arg

    return _shape_arg(shape)


def _draw(op_type: str, shape: Any, dtype: Any, seed: Any, name: str | None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    return apply(op_type, _gated([shape_t]), {"seed": _seed_key(seed, f"{op_type}:{dt.name}", shape_t), "dtype": dt},
                 name=name)


def random_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32,
                  seed: Any = None, name: str | None = None) -> Tensor:
    rnd = _draw("RandomStandardNormal", shape, dtype, seed, None)
    return m.add(m.multiply(rnd, convert_to_tensor(stddev, dtype=dtype)),
                 convert_to_tensor(mean, dtype=dtype), name=name)


def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = dtypes.float32,
                     seed: Any = None, name: str | None = None) -> Tensor:
    rnd = _draw("TruncatedNormal", shape, dtype, seed, None)
    return m.add(m.multiply(rnd, convert_to_tensor(stddev, dtype=dtype)),
                 convert_to_tensor(mean, dtype=dtype), name=name)


def random_uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32,
                   seed: Any = None, name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    if dt.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        lo = convert_to_tensor(minval, dtype=dt)
        hi = convert_to_tensor(maxval, dtype=dt)
        shape_t = _shape_tensor(shape)
        return apply("RandomUniformInt", _gated([shape_t, lo, hi]),
                     {"seed": _seed_key(seed, f"RandomUniformInt:{dt.name}", shape_t), "dtype": dt}, name=name)
    rnd = _draw("RandomUniform", shape, dt, seed, None)
    hi = 1 if maxval is None else maxval
    lo = convert_to_tensor(minval, dtype=dt)
    return m.add(m.multiply(rnd, m.subtract(convert_to_tensor(hi, dtype=dt), lo)), lo, name=name)


def set_seed(seed: Any) -> None:
    """``tf.random.set_seed``: also restarts the op-order counters, as TF resets its kernels."""
    context.STATE.global_seed = None if seed is None else int(seed)
    context.STATE.eager_seed_counter = 0
    context.STATE.eager_draw_counts.clear()
    context.STATE.eager_kernels.clear()
    if not context.executing_eagerly():
        context.get_default_graph().seed = seed


def shuffle(value: Any, seed: Any = None, name: str | None = None) -> Tensor:
    x = convert_to_tensor(value)
    n = x.shape[0]
    if n is None:
        from runtime.errors import Unsupported

        raise Unsupported("tf.random.shuffle of a tensor with unknown first dimension")
    keys = _draw("RandomUniform", [n], dtypes.float32, seed, None)
    from runtime.ops.array import gather

    return gather(x, m.cast(apply("ArgSort", [keys]), dtypes.int32), name=name)


register("ArgSort", lambda attrs: (lambda x: np.argsort(x, kind="stable").astype(np.int32)))
not_differentiable("ArgSort")

__all__ = ["SymbolicTensor"]
