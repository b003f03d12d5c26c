"""Keras 3's ``KerasTensor``: a shape and dtype that records which operation made it.

The functional API builds a graph of these (``tf.keras.Input`` → layer calls → ``Model``);
running the model replays the operations on real tensors. A KerasTensor holds no value, so a
TensorFlow op refuses it with Keras's own message, and Python arithmetic on it records a Keras
operation (``x + 1`` is an ``add`` node, not a layer).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from runtime import dtypes

_NOT_A_TENSOR = """A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a symbolic placeholder for a shape and dtype, used when constructing Keras Functional models or Keras Functions. You can only use it as input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and `keras.ops`). You are likely doing something like:

```
x = Input(...)
...
tf_fn(x)  # Invalid.
```

What you should do instead is wrap `tf_fn` in a layer:

```
class MyLayer(Layer):
    def call(self, x):
        return tf_fn(x)

x = MyLayer()(x)
```
"""


class KerasHistory(NamedTuple):
    """Which operation made a tensor: the operation, its node (call) index, the output index."""

    operation: Any
    node_index: int
    tensor_index: int


class KerasTensor:
    """A symbolic tensor of the functional API (``keras.src.backend.common.keras_tensor``)."""

    def __init__(self, shape: tuple, dtype: Any = "float32", name: str | None = None) -> None:
        from runtime.keras.layers import auto_name

        self._shape = tuple(None if d is None else int(d) for d in shape)
        self._dtype = dtypes.as_dtype(dtype)
        self.name = name or auto_name("keras_tensor")
        self.sparse = False
        self.ragged = False
        self._keras_history: KerasHistory | None = None

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> str:
        return self._dtype.name

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def _as_tensor(self) -> Any:
        raise ValueError(_NOT_A_TENSOR)

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(_NOT_A_TENSOR)

    def __bool__(self) -> bool:
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __repr__(self) -> str:
        return (f"<KerasTensor shape={self._shape}, dtype={self.dtype}, sparse={self.sparse}, "
                f"ragged={self.ragged}, name={self.name}>")

    __str__ = __repr__

    # Arithmetic records a Keras operation (``keras.ops``), named as Keras names them.
    def __add__(self, other: Any) -> Any:
        return _op("add", self, other)

    def __radd__(self, other: Any) -> Any:
        return _op("add", other, self)

    def __sub__(self, other: Any) -> Any:
        return _op("subtract", self, other)

    def __rsub__(self, other: Any) -> Any:
        return _op("subtract", other, self)

    def __mul__(self, other: Any) -> Any:
        return _op("multiply", self, other)

    def __rmul__(self, other: Any) -> Any:
        return _op("multiply", other, self)

    def __truediv__(self, other: Any) -> Any:
        return _op("true_divide", self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _op("true_divide", other, self)

    def __matmul__(self, other: Any) -> Any:
        return _op("matmul", self, other)

    def __neg__(self) -> Any:
        return _op("negative", self)

    def __getitem__(self, key: Any) -> Any:
        return _op("get_item", self, key)


def _op(kind: str, *args: Any) -> Any:
    from runtime.keras.functional import operation

    return operation(kind)(*args)


def is_keras_tensor(x: Any) -> bool:
    return isinstance(x, KerasTensor)


def has_keras_tensor(structure: Any) -> bool:
    """Whether a (nested) call argument holds a KerasTensor: the call is then symbolic."""
    from runtime import nest

    return any(isinstance(x, KerasTensor) for x in nest.flatten(structure))
