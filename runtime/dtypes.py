"""TensorFlow dtypes as thin wrappers over NumPy dtypes, with TF's names and reprs."""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import Unsupported


class DType:
    """A TF dtype: compares equal to its NumPy dtype, prints like TensorFlow."""

    __slots__ = ("name", "np")

    def __init__(self, name: str, np_dtype: Any) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)

    @property
    def as_numpy_dtype(self) -> type:
        return self.np.type

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def is_floating(self) -> bool:
        return self.np.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self.np.kind in "iu"

    @property
    def is_bool(self) -> bool:
        return self.np.kind == "b"

    @property
    def is_complex(self) -> bool:
        return self.np.kind == "c"

    @property
    def is_unsigned(self) -> bool:
        return self.np.kind == "u"

    @property
    def is_numpy_compatible(self) -> bool:
        return True

    @property
    def size(self) -> int:
        return self.np.itemsize

    @property
    def max(self) -> Any:
        return np.finfo(self.np).max if self.is_floating else np.iinfo(self.np).max

    @property
    def min(self) -> Any:
        return np.finfo(self.np).min if self.is_floating else np.iinfo(self.np).min

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self.name == other.name
        try:
            return as_dtype(other).name == self.name
        except (TypeError, ValueError):
            return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple:
        return (as_dtype, (self.name,))


class NamedDType(DType):
    """A TF dtype NumPy has no type for (bfloat16): it names and compares as TF's does, so a
    program may test for it; a tensor of it is a loud Unsupported."""

    __slots__ = ()

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def np(self) -> Any:  # type: ignore[override]
        raise Unsupported(f"tf.{self.name} tensors")

    @property
    def is_floating(self) -> bool:
        return True


float16 = DType("float16", np.float16)
bfloat16 = NamedDType("bfloat16")
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool_ = DType("bool", np.bool_)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.object_)

half = float16
double = float64

ALL = [float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       bool_, complex64, complex128, string]
_BY_NAME = {d.name: d for d in ALL}
# TF's own aliases (``tf.placeholder("float", ...)`` is float32, not NumPy's float64).
_BY_NAME.update({"half": float16, "float": float32, "double": float64, "bfloat16": bfloat16})
_KERNEL_NAMES = {"float16": "half", "float32": "float", "float64": "double"}


def kernel_name(dt: DType) -> str:
    """A dtype as TF's kernel errors spell it (``float``, ``double``, ``half``, ``int32``...)."""
    return _KERNEL_NAMES.get(dt.name, dt.name)


#: Names NumPy accepts but TF refuses.
_NOT_TF_NAMES = frozenset({"int", "long", "complex"})
_BY_NP = {d.np: d for d in ALL}
_BY_NP[np.dtype("U")] = string


def as_dtype(value: Any) -> DType:
    """Convert a DType, NumPy dtype/type or name to a DType (TF's ``tf.as_dtype``)."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if isinstance(value, str) and value in _NOT_TF_NAMES:
        raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return bool_
    try:
        npd = np.dtype(value)
    except TypeError as exc:
        raise TypeError(f"Cannot convert value {value!r} to a TensorFlow DType.") from exc
    if npd.kind in "US":
        return string
    if npd in _BY_NP:
        return _BY_NP[npd]
    raise TypeError(f"Cannot convert value {value!r} to a TensorFlow DType.")


def infer_dtype(value: Any) -> DType:
    """The dtype TF gives a Python/NumPy value: float → float32, int → int32."""
    if isinstance(value, (np.ndarray, np.generic)):
        return as_dtype(value.dtype)
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int32 if -(2**31) <= value < 2**31 else int64
    if isinstance(value, float):
        return float32
    if isinstance(value, complex):
        return complex128
    if isinstance(value, (str, bytes)):
        return string
    if isinstance(value, (list, tuple)):
        arr = np.asarray(value)
        if arr.dtype.kind == "f":
            return float32
        if arr.dtype.kind in "iu":
            return int32 if arr.size == 0 or (arr.min() >= -(2**31) and arr.max() < 2**31) else int64
        if arr.dtype.kind == "b":
            return bool_
        if arr.dtype.kind in "US":
            return string
        if arr.dtype.kind == "c":
            return complex128
        if arr.dtype.kind == "O":
            raise _unconvertible(value, "Can't convert Python sequence with mixed types to Tensor.")
        return as_dtype(arr.dtype)
    arr = np.asarray(value)
    if arr.dtype.kind == "O":  # None, an Operation, any object TF has no conversion for
        raise _unconvertible(
            value,
            f"Attempt to convert a value ({value!r}) with an unsupported type "
            f"({type(value)}) to a Tensor.",
        )
    return as_dtype(arr.dtype)


def _unconvertible(value: Any, eager_message: str) -> Exception:
    """What TF raises for a value with no tensor conversion: eager execution and graph
    building (a tf.function, a TF1 graph) take different paths and say it differently."""
    from runtime import context

    if context.executing_eagerly():
        return ValueError(eager_message)
    if value is None:
        return ValueError("None values not supported.")
    return TypeError(
        f"Failed to convert elements of {value} to Tensor. Consider casting elements to a "
        "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for "
        "supported TF dtypes."
    )
