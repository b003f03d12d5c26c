"""TensorShape: a possibly partial shape, printed like TensorFlow's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class Dimension:
    """TF1's ``Dimension`` object (``tf.compat.v1.Dimension``); only ``.value`` is used."""

    def __init__(self, value: int | None) -> None:
        self.value = value


class KnownDimension(int):
    """A known dimension read from a shape under TF 1.x behaviour: an int that also has
    TF1's ``.value``, so ``x.get_shape()[1].value`` runs as it did in TF 1.x."""

    __slots__ = ()

    @property
    def value(self) -> int:
        return int(self)


#: Set by the TF 1.x face and ``tf.compat.v1.disable_v2_behavior()``: known dimensions read
#: from a shape are ``KnownDimension``. Unknown ones stay None, as TF 2.21's compat.v1 has them.
V1_DIMENSIONS = False


class TensorShape:
    """A shape whose rank or dims may be unknown (``None``)."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Any) -> None:
        if dims is None:
            self._dims: tuple[int | None, ...] | None = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            if isinstance(dims, int):
                dims = [dims]
            self._dims = tuple(
                None if d is None else int(d.value if isinstance(d, Dimension) else d) for d in dims
            )

    @property
    def dims(self) -> list[int | None] | None:
        return None if self._dims is None else list(self._dims)

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list[int | None]:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self) -> bool:
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:  # type: ignore[union-attr]
            n *= d  # type: ignore[operator]
        return n

    def is_compatible_with(self, other: Any) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def with_rank(self, rank: int) -> TensorShape:
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self) -> Iterator[int | None]:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key: Any) -> Any:
        if self._dims is None:
            if isinstance(key, slice):
                return TensorShape(None)
            return None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        d = self._dims[key]
        return KnownDimension(d) if V1_DIMENSIONS and d is not None else d

    def __bool__(self) -> bool:
        return self._dims is not None

    def __eq__(self, other: object) -> bool:
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self) -> int:
        return hash(self._dims)

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        inner = ", ".join("None" if d is None else str(d) for d in self._dims)
        return f"({inner},)" if len(self._dims) == 1 else f"({inner})"

    def __add__(self, other: Any) -> TensorShape:
        return self.concatenate(other)


def as_shape(value: Any) -> TensorShape:
    return value if isinstance(value, TensorShape) else TensorShape(value)


def dims_text(shape: Any) -> str:
    """A shape (a TensorShape or an array's) as TF's op errors write it: `[2,?,3]`, and `?` for
    an unknown rank."""
    if isinstance(shape, TensorShape) and shape.rank is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"
