"""Keras 3 ``Variable``: not a tf.Variable; wraps one (``.value``) and has a ``.path``."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.shapes import TensorShape
from runtime.tensor import Tensor
from runtime.variables import Variable

_NAME_STACK: list[str] = []
#: The open ``keras.name_scope``s: (how many entries ``_NAME_STACK`` held when it opened, name).
_SCOPES: list[tuple[int, str]] = []


def current_path(name: str) -> str:
    return "/".join(_NAME_STACK + [name])


class name_scope:
    """``keras.name_scope(name)``: the Keras variables created inside have paths under ``name``
    (a layer first called in it builds its weights there); TF ops and tf.Variables get the TF
    name scope too, as Keras's TensorFlow backend opens both."""

    def __init__(self, name: Any, caller: Any = None, deduplicate: bool = True,
                 override_parent: Any = None) -> None:
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        if caller is not None or override_parent is not None:
            raise Unsupported("keras.name_scope(caller=, override_parent=)")
        self.name = name
        self._tf_scope: Any = None

    def __enter__(self) -> name_scope:  # noqa: PYI034 - not subclassed
        from runtime.api_scopes import NameScopeV2

        _SCOPES.append((len(_NAME_STACK), self.name))
        _NAME_STACK.append(self.name)
        self._tf_scope = NameScopeV2(self.name)
        self._tf_scope.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._tf_scope.__exit__(*exc)
        _NAME_STACK.pop()
        _SCOPES.pop()


name_scope.__module__ = "keras.src.backend"


class KerasVariable:
    """The variable type Keras layers and optimizers create."""

    def __init__(self, value: np.ndarray, name: str, path: str, trainable: bool = True,
                 dtype: Any = None, report: bool = True) -> None:
        # The outermost layer's name, under the name scopes opened around its call.
        outer = next((i for i, (at, _) in enumerate(_SCOPES) if at != i), len(_SCOPES))
        tf_name = "/".join([*_NAME_STACK[: outer + 1], name])
        self._engine_variable = Variable(value, trainable=trainable, name=tf_name, dtype=dtype,
                                         _absolute_name=True, _trace_path=path, _report=report)
        self.name = name
        self.path = path
        self.trainable = trainable

    @property
    def value(self) -> Variable:
        return self._engine_variable

    @property
    def shape(self) -> TensorShape:
        return self._engine_variable.shape

    @property
    def dtype(self) -> str:
        return self._engine_variable.dtype.name

    @property
    def ndim(self) -> int:
        return self.shape.rank

    def numpy(self) -> Any:
        return self._engine_variable.numpy()

    def _as_tensor(self) -> Tensor:
        return self._engine_variable._as_tensor()

    def assign(self, value: Any) -> Any:
        t = value if isinstance(value, Tensor) else convert_to_tensor(
            value, dtype=self._engine_variable.dtype) if not hasattr(value, "_as_tensor") else value._as_tensor()
        if t.shape.rank is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        if t.shape.as_list() != self.shape.as_list() and None not in t.shape.as_list():
            raise ValueError(
                "The shape of the target variable and the shape of the target value in "
                f"`variable.assign(value)` must match. variable.shape={tuple(self.shape.as_list())}, Received: "
                f"value.shape={tuple(t.shape.as_list())}. Target variable: {self!r}")
        if t.dtype != self._engine_variable.dtype:
            from runtime.ops.math import cast

            t = cast(t, self._engine_variable.dtype)
        self._engine_variable.assign(t)
        return self

    def assign_add(self, value: Any) -> Any:
        self._engine_variable.assign_add(value)
        return self

    def assign_sub(self, value: Any) -> Any:
        self._engine_variable.assign_sub(value)
        return self

    def __repr__(self) -> str:
        v = self._engine_variable._value
        value = "..." if v is None else (str(v.item()) if v.ndim == 0 else str(v))
        return (f"<Variable path={self.path}, shape={tuple(self.shape.as_list())}, dtype={self.dtype}, "
                f"value={value}>")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._engine_variable._read(), dtype=dtype)

    def __float__(self) -> float:
        return float(self._engine_variable._read())

    def __int__(self) -> int:
        return int(self._engine_variable._read())

    def __format__(self, spec: str) -> str:
        return format(self.numpy(), spec) if spec else repr(self)

    def __hash__(self) -> int:
        return id(self)


KerasVariable.__module__ = "keras.src.backend"
KerasVariable.__name__ = KerasVariable.__qualname__ = "Variable"


def _binop(name: str) -> Any:
    def method(self: KerasVariable, *args: Any) -> Any:
        return getattr(self._as_tensor(), name)(*args)

    method.__name__ = name
    return method


for _m in ["__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
           "__rtruediv__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__getitem__",
           "__lt__", "__le__", "__gt__", "__ge__", "__abs__", "__floordiv__", "__mod__"]:
    setattr(KerasVariable, _m, _binop(_m))


def make_variable(initial: np.ndarray, name: str, path: str | None = None, trainable: bool = True,
                  dtype: Any = None, report: bool = True) -> KerasVariable:
    """A Keras variable; ``report=False`` keeps optimizer state out of the trace's model state."""
    with context.init_scope():
        return KerasVariable(initial, name, path or current_path(name), trainable,
                             None if dtype is None else dtypes.as_dtype(dtype), report)
