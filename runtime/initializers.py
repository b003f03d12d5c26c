"""Initializers: TF1 ``init_ops`` (v1 defaults) and TF2/Keras ones (different defaults, §3.1).

Every initializer samples from a NumPy Generator keyed by the variable's full name, so the same
variable name gets the same start values whichever API created it.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from runtime import dtypes, trace
from runtime.tensor import EagerTensor
from runtime.update_rules import build_rule

_call_counter = [0]


#: TF1 layer code names a layer's variables `weights`/`biases` where Keras says `kernel`/`bias`;
#: they draw as the Keras names, so a layer starts from the same values whichever API built it.
DRAW_LEAVES = {"weights": "kernel", "biases": "bias"}


def name_rng(name: str | None) -> np.random.Generator:
    """The generator for a variable's initial values: seeded by its full name."""
    if name is None:
        _call_counter[0] += 1
        return np.random.default_rng([7, _call_counter[0]])
    scope, slash, leaf = name.rpartition("/")
    key = scope + slash + DRAW_LEAVES.get(leaf, leaf)
    return np.random.default_rng(zlib.crc32(key.encode("utf-8")))


def compute_fans(shape: tuple) -> tuple[int, int]:
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    rf = int(np.prod(shape[:-2]))
    return shape[-2] * rf, shape[-1] * rf


def _uniform(rng: np.random.Generator, shape: tuple, lo: float, hi: float, dt: Any) -> np.ndarray:
    r = rng.random(shape, dtype=np.float64).astype(dt)
    return (r * dt.type(hi - lo) + dt.type(lo)).astype(dt)


def _truncated(rng: np.random.Generator, shape: tuple, dt: Any) -> np.ndarray:
    out = rng.standard_normal(shape)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out.astype(dt)


class Initializer:
    """Base: ``sample`` draws an array; calling returns a tensor like TF initializers do."""

    def __init__(self, dtype: Any = None) -> None:
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype)

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        raise NotImplementedError

    def rule(self) -> dict[str, Any] | None:
        """How this initializer draws, in one vocabulary for TF1's and Keras's initializers
        (``update_rules.build_rule``); None where it cannot be told (a user's function)."""
        return None

    def draw(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        """``sample``, telling the trace which rule the next variable created starts from."""
        if trace.recorder.path is not None:
            trace.initializer_drawn(self.rule())
        return self.sample(shape, dtype, name)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None, **_: Any) -> Any:
        from runtime import context
        from runtime.convert import constant

        dt = dtypes.as_dtype(dtype) if dtype is not None else (self.dtype or dtypes.float32)
        dims = tuple(_dims(shape))
        if context.executing_eagerly():
            return InitialDraw(lambda name: self.draw(dims, dt, name), dt)
        return constant(self.draw(dims, dt, None), dt)

    def get_config(self) -> dict:
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}


_VALUE_SLOT = EagerTensor._value


class InitialDraw(EagerTensor):
    """An initializer's eager result, drawn when first read. `tf.Variable(init(shape), name=n)`
    draws it by the variable's full name, as `get_variable(n, initializer=init)` and Keras
    `add_weight` do, so every way of starting a variable from an initializer starts it equal;
    read before that, or for a name already drawn by, it draws by call order."""

    __slots__ = ("_sample",)
    _names_drawn: ClassVar[set[str]] = set()

    def __init__(self, sample: Callable[[str | None], np.ndarray], dtype: dtypes.DType) -> None:
        self._sample: Callable[[str | None], np.ndarray] | None = sample
        self._dtype = dtype

    def draw(self, name: str | None) -> np.ndarray:
        if self._sample is not None:
            if name in InitialDraw._names_drawn:
                name = None  # two variables of one name must not start equal
            if name is not None:
                InitialDraw._names_drawn.add(name)
            _VALUE_SLOT.__set__(self, self._sample(name))
            self._sample = None
        return _VALUE_SLOT.__get__(self)

    @property  # type: ignore[override]
    def _value(self) -> np.ndarray:
        return self.draw(None)


def _dims(shape: Any) -> list[int]:
    from runtime.shapes import TensorShape

    if isinstance(shape, TensorShape):
        return shape.as_list()
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return [int(d) for d in shape]


def _seed(seed: Any) -> str | None:
    return None if seed is None else str(seed)


class Zeros(Initializer):
    def rule(self) -> dict[str, Any]:
        return build_rule("constant", value=0.0)

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        return np.zeros(shape, dtypes.as_dtype(dtype).np)


class Ones(Initializer):
    def rule(self) -> dict[str, Any]:
        return build_rule("constant", value=1.0)

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        return np.ones(shape, dtypes.as_dtype(dtype).np)


class Constant(Initializer):
    def __init__(self, value: Any = 0, dtype: Any = None, verify_shape: bool = False) -> None:
        super().__init__(dtype)
        self.value = value

    def rule(self) -> dict[str, Any] | None:
        """A single value; an array of them shows in the variable's starting values."""
        v = np.asarray(self.value.numpy() if hasattr(self.value, "numpy") else self.value)
        return build_rule("constant", value=v.reshape(())) if v.size == 1 and v.dtype.kind in "biuf" else None

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        v = np.asarray(self.value.numpy() if hasattr(self.value, "numpy") else self.value)
        dt = dtypes.as_dtype(dtype).np
        if v.size == 1:
            return np.full(shape, v.reshape(()), dtype=dt)
        if v.size != int(np.prod(shape)):
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {v} "
                            f"(converted from {self.value}) has {v.size} elements, but got `shape` "
                            f"{tuple(shape)} with {int(np.prod(shape))} elements).")
        return v.reshape(shape).astype(dt)


class RandomUniform(Initializer):
    def __init__(self, minval: float = 0.0, maxval: float | None = None, seed: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def rule(self) -> dict[str, Any]:
        hi = 1.0 if self.maxval is None else self.maxval
        return build_rule("uniform", minval=self.minval, maxval=hi, seed=_seed(self.seed))

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        dt = dtypes.as_dtype(dtype)
        hi = 1.0 if self.maxval is None else self.maxval
        rng = name_rng(name)
        if dt.is_integer:
            return rng.integers(int(self.minval), int(hi), shape).astype(dt.np)
        return _uniform(rng, shape, float(self.minval), float(hi), dt.np)


class RandomNormal(Initializer):
    _distribution = "normal"

    def __init__(self, mean: float = 0.0, stddev: float = 1.0, seed: Any = None, dtype: Any = None) -> None:
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def rule(self) -> dict[str, Any]:
        return build_rule(self._distribution, mean=self.mean, stddev=self.stddev,
                          seed=_seed(self.seed))

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        dt = dtypes.as_dtype(dtype).np
        return (name_rng(name).standard_normal(shape) * self.stddev + self.mean).astype(dt)


class TruncatedNormal(RandomNormal):
    _distribution = "truncated_normal"

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        dt = dtypes.as_dtype(dtype).np
        return (_truncated(name_rng(name), shape, np.float64) * self.stddev + self.mean).astype(dt)


class VarianceScaling(Initializer):
    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                 seed: Any = None, dtype: Any = None) -> None:
        super().__init__(dtype)
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def rule(self) -> dict[str, Any]:
        # TF1's "normal" is truncated, as Keras's "truncated_normal"
        distribution = {"normal": "truncated_normal"}.get(self.distribution, self.distribution)
        return build_rule("variance_scaling", scale=self.scale, mode=self.mode,
                          distribution=distribution, seed=_seed(self.seed))

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        dt = dtypes.as_dtype(dtype).np
        fan_in, fan_out = compute_fans(tuple(shape))
        scale = self.scale
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        rng = name_rng(name)
        if self.distribution in ("normal", "truncated_normal"):
            std = math.sqrt(scale) / 0.87962566103423978
            return (_truncated(rng, shape, np.float64) * std).astype(dt)
        if self.distribution == "untruncated_normal":
            return (rng.standard_normal(shape) * math.sqrt(scale)).astype(dt)
        limit = math.sqrt(3.0 * scale)
        return _uniform(rng, shape, -limit, limit, dt)


class GlorotUniform(VarianceScaling):
    def __init__(self, seed: Any = None, dtype: Any = None) -> None:
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed: Any = None, dtype: Any = None) -> None:
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


def _vs(scale: float, mode: str, dist: str) -> type:
    class _Init(VarianceScaling):
        def __init__(self, seed: Any = None, dtype: Any = None) -> None:
            super().__init__(scale, mode, dist, seed, dtype)

    return _Init


HeNormal = _vs(2.0, "fan_in", "truncated_normal")
HeUniform = _vs(2.0, "fan_in", "uniform")
LecunNormal = _vs(1.0, "fan_in", "truncated_normal")
LecunUniform = _vs(1.0, "fan_in", "uniform")
for _cls, _n in [(HeNormal, "HeNormal"), (HeUniform, "HeUniform"), (LecunNormal, "LecunNormal"),
                 (LecunUniform, "LecunUniform")]:
    _cls.__name__ = _cls.__qualname__ = _n


class Identity(Initializer):
    def __init__(self, gain: float = 1.0, dtype: Any = None) -> None:
        super().__init__(dtype)
        self.gain = gain

    def rule(self) -> dict[str, Any]:
        return build_rule("identity", gain=self.gain)

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        return (np.eye(*shape) * self.gain).astype(dtypes.as_dtype(dtype).np)


class Orthogonal(Initializer):
    def __init__(self, gain: float = 1.0, seed: Any = None, dtype: Any = None) -> None:
        super().__init__(dtype)
        self.gain, self.seed = gain, seed

    def rule(self) -> dict[str, Any]:
        return build_rule("orthogonal", gain=self.gain, seed=_seed(self.seed))

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        rows = int(np.prod(shape[:-1]))
        cols = shape[-1]
        a = name_rng(name).standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q[:rows, :cols]).reshape(shape).astype(dtypes.as_dtype(dtype).np)


# TF2 (init_ops_v2) and Keras defaults differ from TF1 (§3.1).
class RandomNormalV2(RandomNormal):
    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Any = None) -> None:
        super().__init__(mean, stddev, seed)


class TruncatedNormalV2(TruncatedNormal):
    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Any = None) -> None:
        super().__init__(mean, stddev, seed)


class RandomUniformV2(RandomUniform):
    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: Any = None) -> None:
        super().__init__(minval, maxval, seed)


class ConstantV2(Constant):
    """``tf.constant_initializer`` (init_ops_v2): takes no dtype, unlike TF1's."""

    def __init__(self, value: Any = 0, support_partition: bool = False) -> None:
        super().__init__(value)
        self.support_partition = support_partition


class VarianceScalingV1(VarianceScaling):
    """TF1 ``variance_scaling_initializer``: distribution 'normal' is truncated."""


KERAS_NAMES = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal, "he_normal": HeNormal, "he_uniform": HeUniform,
    "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform, "random_normal": RandomNormalV2,
    "random_uniform": RandomUniformV2, "truncated_normal": TruncatedNormalV2, "identity": Identity,
    "orthogonal": Orthogonal, "variance_scaling": VarianceScaling, "uniform": RandomUniformV2,
    "normal": RandomNormalV2,
}


def get(identifier: Any) -> Initializer | None:
    """Resolve a Keras-style initializer: a name, a class, an instance or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        key = identifier.lower()
        snake = "".join("_" + c.lower() if c.isupper() else c for c in identifier).lstrip("_")
        cls = KERAS_NAMES.get(key) or KERAS_NAMES.get(snake)
        if cls is None:
            raise ValueError(f"Could not interpret initializer identifier: {identifier}")
        return cls()
    if isinstance(identifier, type):
        return identifier()
    if isinstance(identifier, Initializer):
        return identifier
    if callable(identifier):
        return _CallableInit(identifier)
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


class _CallableInit(Initializer):
    """A user function ``f(shape, dtype)`` used as an initializer."""

    def __init__(self, fn: Any) -> None:
        super().__init__()
        self.fn = fn

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        from runtime import context

        # Keras calls it where the layer is built: in a function being traced its random ops
        # are graph ops, each with a kernel of its own (`context.graph_kernels`), not eager ones.
        traced = not context.executing_eagerly()
        with context.init_scope(), context.graph_kernels(traced):
            try:
                out = self.fn(shape, dtype=dtype)
            except TypeError:
                out = self.fn(shape)
        return np.asarray(out.numpy() if hasattr(out, "numpy") else out, dtype=dtypes.as_dtype(dtype).np)
