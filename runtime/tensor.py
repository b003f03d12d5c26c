"""Tensor classes: EagerTensor (holds a NumPy value) and SymbolicTensor (an op output in a graph).

Both share TF's operator overloads, which dispatch to registered ops, so the same Python
expression builds a graph node or runs eagerly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.shapes import TensorShape

# Filled by runtime.ops.math / runtime.ops.array once loaded (they import this module).
OPS: dict[str, Any] = {}


def _op(name: str) -> Any:
    return OPS[name]


class Tensor:
    """Base class of all tensors (``tf.Tensor``)."""

    __array_priority__ = 100
    _dtype: dtypes.DType

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    def get_shape(self) -> TensorShape:
        return self.shape  # type: ignore[attr-defined]

    @property
    def ndim(self) -> int | None:
        return self.shape.rank  # type: ignore[attr-defined]

    def ref(self) -> TensorRef:
        return TensorRef(self)

    experimental_ref = ref

    # arithmetic -------------------------------------------------------------
    def __add__(self, o: Any) -> Any:
        return _op("add")(self, o, name="add")

    def __radd__(self, o: Any) -> Any:
        return _op("add")(o, self, name="add")

    def __sub__(self, o: Any) -> Any:
        return _op("subtract")(self, o, name="sub")

    def __rsub__(self, o: Any) -> Any:
        return _op("subtract")(o, self, name="sub")

    def __mul__(self, o: Any) -> Any:
        return _op("multiply")(self, o, name="mul")

    def __rmul__(self, o: Any) -> Any:
        return _op("multiply")(o, self, name="mul")

    def __truediv__(self, o: Any) -> Any:
        return _op("truediv")(self, o, name="truediv")

    def __rtruediv__(self, o: Any) -> Any:
        return _op("truediv")(o, self, name="truediv")

    def __floordiv__(self, o: Any) -> Any:
        return _op("floordiv")(self, o, name="floordiv")

    def __rfloordiv__(self, o: Any) -> Any:
        return _op("floordiv")(o, self, name="floordiv")

    def __mod__(self, o: Any) -> Any:
        return _op("floormod")(self, o, name="mod")

    def __rmod__(self, o: Any) -> Any:
        return _op("floormod")(o, self, name="mod")

    def __pow__(self, o: Any) -> Any:
        return _op("pow")(self, o, name="pow")

    def __rpow__(self, o: Any) -> Any:
        return _op("pow")(o, self, name="pow")

    def __matmul__(self, o: Any) -> Any:
        return _op("matmul")(self, o, name="matmul")

    def __rmatmul__(self, o: Any) -> Any:
        return _op("matmul")(o, self, name="matmul")

    def __neg__(self) -> Any:
        return _op("negative")(self)

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        return _op("abs")(self)

    def __invert__(self) -> Any:
        return _op("logical_not")(self)

    def __and__(self, o: Any) -> Any:
        return _op("logical_and")(self, o, name="and")

    def __or__(self, o: Any) -> Any:
        return _op("logical_or")(self, o, name="or")

    def __lt__(self, o: Any) -> Any:
        return _op("less")(self, o)

    def __le__(self, o: Any) -> Any:
        return _op("less_equal")(self, o)

    def __gt__(self, o: Any) -> Any:
        return _op("greater")(self, o)

    def __ge__(self, o: Any) -> Any:
        return _op("greater_equal")(self, o)

    def __getitem__(self, key: Any) -> Any:
        return _op("getitem")(self, key)


class TensorRef:
    """Hashable reference to a tensor (``tensor.ref()``)."""

    def __init__(self, t: Tensor) -> None:
        self._t = t

    def deref(self) -> Tensor:
        return self._t

    def __hash__(self) -> int:
        return id(self._t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorRef) and other._t is self._t


def numpy_text(value: np.ndarray, is_repr: bool = False) -> str:
    """TF's text for a tensor value: scalars as ``str``, arrays as ``repr``/``str``."""
    if value.ndim == 0:
        text = repr(value.item()) if is_repr and value.dtype.kind in "fiub" else str(value[()])
    else:
        text = repr(value) if is_repr else str(value)
    if "\n" in text:
        text = "\n" + text
    return text


class EagerTensor(Tensor):
    """A concrete value (``tf.Tensor`` in eager mode)."""

    __slots__ = ("_dtype", "_value")

    def __init__(self, value: np.ndarray, dtype: dtypes.DType | None = None) -> None:
        self._value = value
        self._dtype = dtype if dtype is not None else dtypes.as_dtype(value.dtype)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def name(self) -> str:
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    @property
    def op(self) -> Any:
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    @property
    def graph(self) -> Any:
        raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")

    def numpy(self) -> Any:
        v = self._value
        return v[()] if v.ndim == 0 else v.copy()

    def _numpy(self) -> np.ndarray:
        return self._value

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._value if dtype is None else self._value.astype(dtype)

    def __len__(self) -> int:
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return len(self._value)

    def __iter__(self) -> Any:
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(len(self._value)))

    def __bool__(self) -> bool:
        return bool(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __index__(self) -> int:
        if not self._dtype.is_integer:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self._value)

    def __format__(self, spec: str) -> str:
        v = self._value
        return format(v.item() if v.ndim == 0 else v, spec)

    def __hash__(self) -> int:
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __eq__(self, o: object) -> Any:  # type: ignore[override]
        return _op("equal")(self, o)

    def __ne__(self, o: object) -> Any:  # type: ignore[override]
        return _op("not_equal")(self, o)

    def __str__(self) -> str:
        return f"tf.Tensor({numpy_text(self._value)}, shape={self.shape}, dtype={self._dtype.name})"

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, numpy={numpy_text(self._value, is_repr=True)}>"

    def __reduce__(self) -> tuple:
        return (EagerTensor, (self._value,))


class SymbolicTensor(Tensor):
    """An output of an Operation in a Graph. Its value exists only while a plan runs."""

    def __init__(self, op: Any, index: int, shape: TensorShape, dtype: dtypes.DType) -> None:
        self.op = op
        self.value_index = index
        self._shape = shape
        self._dtype = dtype
        self.slot = op.graph._new_slot(self)
        # Values used for static shape inference and constant folding (see graph.py).
        self._probe: tuple[np.ndarray, np.ndarray] | None = None
        self._exact = False

    @property
    def graph(self) -> Any:
        return self.op.graph

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def set_shape(self, shape: Any) -> None:
        was_unknown = self._shape.rank is None
        self._shape = self._shape.merge_with(shape)
        if was_unknown and self._shape.rank is not None:
            from runtime.graph import probe_value

            self._probe = (probe_value(self._shape, self._dtype, 0), probe_value(self._shape, self._dtype, 1))
            self._exact = False

    @property
    def device(self) -> str:
        return ""

    @property
    def consumers(self) -> list:
        return [op for op in self.op.graph.get_operations() if self in op.inputs]

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        from runtime.session import default_session_for

        return default_session_for(self.graph, session).run(self, feed_dict)

    def _in_tf2_function(self) -> bool:
        """TF2 semantics (unhashable, ``==`` elementwise) hold in function graphs only: a
        ``tf.Graph().as_default()`` block in an eager program builds a TF1-style graph."""
        return context.STATE.eager_enabled and self.op.graph.is_function

    def __hash__(self) -> int:
        if self._in_tf2_function():
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def __eq__(self, o: object) -> Any:  # type: ignore[override]
        if self._in_tf2_function():
            return _op("equal")(self, o)
        return self is o

    def __ne__(self, o: object) -> Any:  # type: ignore[override]
        if self._in_tf2_function():
            return _op("not_equal")(self, o)
        return self is not o

    def __bool__(self) -> bool:
        from runtime.errors import OperatorNotAllowedInGraphError

        # TF 2.21 raises this (a TypeError) for any symbolic tensor, in a tf.function or in a
        # graph built with eager execution disabled alike.
        raise OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt "
            "the following resolutions to the problem: If you are running in Graph mode, use "
            "Eager execution mode or decorate this function with @tf.function. If you are "
            "using AutoGraph, you can try decorating this function with @tf.function. If that "
            "does not work, then you may be using an unsupported feature or your source code "
            "may not be visible to AutoGraph.")

    def __len__(self) -> int:
        if self._shape.rank is None or self._shape.rank == 0 or self._shape[0] is None:
            raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). "
                            "Please call `x.shape` rather than `len(x)` for shape information.")
        return self._shape[0]

    def __iter__(self) -> Any:
        from runtime.function import iterate_symbolic

        return iterate_symbolic(self)

    def __str__(self) -> str:
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self._dtype.name})'

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"


EagerTensor.__module__ = SymbolicTensor.__module__ = "tensorflow.python.framework.ops"
Tensor.__module__ = "tensorflow.python.framework.tensor"


def is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)
