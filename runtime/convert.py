"""Converting Python values, NumPy arrays and variables to tensors (``tf.convert_to_tensor``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.errors import invalid_argument
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


def _python_to_array(value: Any, dtype: dtypes.DType | None) -> np.ndarray:
    inferred = dtypes.infer_dtype(value)
    if dtype is None:
        dtype = inferred
    if dtype.is_integer and inferred.is_floating:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if dtype.is_bool and not inferred.is_bool:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype bool")
    if dtype == dtypes.string:
        return np.asarray(value, dtype=object)
    return np.asarray(value, dtype=dtype.np)


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    """``tf.constant``: an EagerTensor, or a Const op in graph mode."""
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        value = _concrete(value)
    arr = _python_to_array(value, dt)
    if shape is not None:
        shape = list(shape)
        if arr.size == 1 and int(np.prod(shape)) != 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        else:
            arr = arr.reshape(shape)
    dt = dt or dtypes.as_dtype(arr.dtype)
    if context.executing_eagerly():
        return EagerTensor(arr, dt)
    from runtime.ops.array import constant_in_graph

    return constant_in_graph(context.get_default_graph(), arr, dt, name or "Const")


def _concrete(t: Tensor) -> Any:
    if isinstance(t, EagerTensor):
        return t._value
    from runtime.graph import constant_value

    v = constant_value(t)
    if v is None:
        raise TypeError(f"Expected a constant value, got the symbolic tensor {t!r}")
    return v


def convert_to_tensor(value: Any, dtype: Any = None, name: str | None = None,
                      dtype_hint: Any = None, preferred_dtype: Any = None) -> Tensor:
    """Return ``value`` as a Tensor; Python values take ``dtype`` or ``dtype_hint`` when it fits."""
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if dt is not None and value.dtype != dt:
            raise ValueError(
                f"Tensor conversion requested dtype {dt.name} for Tensor with dtype "
                f"{value.dtype.name}: {value!r}")
        return value
    as_tensor = getattr(value, "_as_tensor", None)
    if as_tensor is not None:
        t = as_tensor()
        if dt is not None and t.dtype != dt:
            raise ValueError(
                f"Tensor conversion requested dtype {dt.name} for Tensor with dtype "
                f"{t.dtype.name}: {t!r}")
        return t
    if isinstance(value, (list, tuple)) and _has_tensor(value):
        from runtime.ops.array import stack

        return stack([convert_to_tensor(v, dt, dtype_hint=dtype_hint) for v in value])
    hint = dtype_hint if dtype_hint is not None else preferred_dtype
    if dt is None and hint is not None:
        hint = dtypes.as_dtype(hint)
        inferred = dtypes.infer_dtype(value)
        if inferred == hint or (hint.is_floating and (inferred.is_integer or inferred.is_floating)
                                and not isinstance(value, (np.ndarray, np.generic))) or hint.is_integer and inferred.is_integer and not isinstance(value, (np.ndarray, np.generic)):
            dt = hint
    return constant(value, dt, name=name)


def _has_tensor(value: Any) -> bool:
    for v in value:
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            return True
        if isinstance(v, (list, tuple)) and _has_tensor(v):
            return True
    return False


def is_symbolic(t: Any) -> bool:
    return isinstance(t, SymbolicTensor)


def binary_operands(op_type: str, x: Any, y: Any) -> tuple[Tensor, Tensor]:
    """Convert the operands of a binary op; a dtype mismatch fails like TF (eager or graph)."""
    x_is = isinstance(x, Tensor) or hasattr(x, "_as_tensor")
    y_is = isinstance(y, Tensor) or hasattr(y, "_as_tensor")
    if x_is or not y_is:
        x = convert_to_tensor(x)
        y = _convert_operand(op_type, y, x.dtype, "y")
    else:
        y = convert_to_tensor(y)
        x = _convert_operand(op_type, x, y.dtype, "x")
    if x.dtype != y.dtype:
        mismatch(op_type, x, y)
    return x, y


def _convert_operand(op_type: str, v: Any, dtype: dtypes.DType, arg: str) -> Tensor:
    if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
        return convert_to_tensor(v)
    try:
        return convert_to_tensor(v, dtype=dtype)
    except TypeError:
        if context.executing_eagerly():
            raise
        raise TypeError(
            f"Expected {dtype.name} passed to parameter '{arg}' of op '{op_type}', got {v!r} of "
            f"type '{type(v).__name__}' instead. Error: Expected {dtype.name}, but got {v!r} of "
            f"type '{type(v).__name__}'.") from None


def mismatch(op_type: str, x: Tensor, y: Tensor) -> None:
    if isinstance(x, SymbolicTensor) or isinstance(y, SymbolicTensor) or not context.executing_eagerly():
        raise TypeError(
            f"Input 'y' of '{op_type}' Op has type {y.dtype.name} that does not match type "
            f"{x.dtype.name} of argument 'x'.")
    raise invalid_argument(
        f"cannot compute {op_type} as input #1(zero-based) was expected to be a {dtypes.kernel_name(x.dtype)} "
        f"tensor but is a {dtypes.kernel_name(y.dtype)} tensor [Op:{op_type}] name: ")
