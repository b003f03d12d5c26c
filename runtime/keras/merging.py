"""Keras 3 layers that join several inputs (``Concatenate``, ``Add``, …), the joints of
functional models with more than one branch."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from runtime.keras import present_as_keras
from runtime.keras.layers import Layer
from runtime.ops import array as A
from runtime.ops import math as M


def _check_list(input_shape: Any, least: int) -> None:
    if not isinstance(input_shape, (list, tuple)) or not all(isinstance(s, (list, tuple)) for s in input_shape):
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: input_shape={input_shape} "
                         "(not a list of shapes)")
    if len(input_shape) < least:
        raise ValueError(f"A merge layer should be called on a list of at least {least} inputs. Got "
                         f"{len(input_shape)} inputs. Full input_shape received: {input_shape}")


class _Merge(Layer):
    #: Joins the list of inputs elementwise.
    merge: Callable[[list], Any]

    def build(self, input_shape: Any) -> None:
        _check_list(input_shape, 1)

    def call(self, inputs: Any) -> Any:
        return type(self).merge(list(inputs))


def _fold(op: Callable) -> Callable[[list], Any]:
    return lambda xs: functools.reduce(op, xs)


class Add(_Merge):
    merge = staticmethod(_fold(M.add))


class Multiply(_Merge):
    merge = staticmethod(_fold(M.multiply))


class Maximum(_Merge):
    merge = staticmethod(_fold(M.maximum))


class Minimum(_Merge):
    merge = staticmethod(_fold(M.minimum))


class Average(_Merge):
    merge = staticmethod(lambda xs: M.divide(functools.reduce(M.add, xs), float(len(xs))))


class Subtract(_Merge):
    def build(self, input_shape: Any) -> None:
        _check_list(input_shape, 2)
        if len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: "
                             f"input_shape={input_shape}")

    merge = staticmethod(lambda xs: M.subtract(xs[0], xs[1]))


class Concatenate(_Merge):
    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = int(axis)

    def build(self, input_shape: Any) -> None:
        if not input_shape or not isinstance(input_shape[0], (tuple, list)):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 input. "
                             f"Received: input_shape={input_shape}")

    def call(self, inputs: Any) -> Any:
        return A.concat(list(inputs), self.axis)


def _functional_form(cls: type) -> Callable:
    def merge(inputs: Any, **kwargs: Any) -> Any:
        return cls(**kwargs)(inputs)

    merge.__name__ = cls.__name__.lower()
    return merge


LAYERS = {"Add": Add, "Subtract": Subtract, "Multiply": Multiply, "Average": Average, "Maximum": Maximum,
          "Minimum": Minimum, "Concatenate": Concatenate}
#: ``tf.keras.layers.add(inputs)`` & co.: make the layer and call it.
FUNCTIONS = {name.lower(): _functional_form(cls) for name, cls in LAYERS.items()}


def concatenate(inputs: Any, axis: int = -1, **kwargs: Any) -> Any:
    return Concatenate(axis=axis, **kwargs)(inputs)


FUNCTIONS["concatenate"] = concatenate

present_as_keras({Add: "layers.merging.add", Subtract: "layers.merging.subtract", Multiply: "layers.merging.multiply",
                  Average: "layers.merging.average", Maximum: "layers.merging.maximum",
                  Minimum: "layers.merging.minimum", Concatenate: "layers.merging.concatenate"})
