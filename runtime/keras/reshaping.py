"""Keras 3 layers without weights that reshape or reduce a tensor, or wrap a function:
``Reshape``, ``Lambda`` and the global poolings."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from runtime.errors import Unsupported
from runtime.keras import present_as_keras
from runtime.keras.layers import Layer
from runtime.ops import array as A
from runtime.ops import math as M


class Reshape(Layer):
    def __init__(self, target_shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs: Any) -> Any:
        return A.reshape(inputs, A.concat([A.shape(inputs)[:1], list(self.target_shape)], 0))


class Lambda(Layer):
    """A function as a layer: called with the layer's ``arguments`` (and ``training``/``mask``
    when the function takes them), as Keras 3 calls it."""

    def __init__(self, function: Callable, output_shape: Any = None, mask: Any = None, arguments: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if mask is not None:
            raise Unsupported("tf.keras.layers.Lambda with mask")
        self.function, self.arguments = function, dict(arguments or {})
        try:
            self._params = set(inspect.signature(function).parameters)
        except (TypeError, ValueError):
            self._params = set()

    def call(self, inputs: Any, mask: Any = None, training: Any = None) -> Any:
        kwargs = dict(self.arguments)
        if "mask" in self._params:
            kwargs["mask"] = mask
        if "training" in self._params:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)


def _channels_last(data_format: Any, layer: str) -> None:
    if data_format not in (None, "channels_last"):
        raise Unsupported(f"tf.keras.layers.{layer} with data_format={data_format!r}")


class _GlobalPooling(Layer):
    #: The reduction, and the axes it runs over (all but batch and channels).
    reduce: Callable
    axes: list[int]

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _channels_last(data_format, type(self).__name__)
        self.keepdims = keepdims

    def call(self, inputs: Any) -> Any:
        return type(self).reduce(inputs, axis=type(self).axes, keepdims=self.keepdims)


class GlobalAveragePooling1D(_GlobalPooling):
    reduce, axes = staticmethod(M.reduce_mean), [1]

    def call(self, inputs: Any, mask: Any = None) -> Any:
        if mask is not None:
            raise Unsupported("tf.keras.layers.GlobalAveragePooling1D with a mask")
        return super().call(inputs)


class GlobalMaxPooling1D(_GlobalPooling):
    reduce, axes = staticmethod(M.reduce_max), [1]


class GlobalAveragePooling2D(_GlobalPooling):
    reduce, axes = staticmethod(M.reduce_mean), [1, 2]


class GlobalMaxPooling2D(_GlobalPooling):
    reduce, axes = staticmethod(M.reduce_max), [1, 2]


LAYERS = {"Reshape": Reshape, "Lambda": Lambda, "GlobalAveragePooling1D": GlobalAveragePooling1D,
          "GlobalAvgPool1D": GlobalAveragePooling1D, "GlobalMaxPooling1D": GlobalMaxPooling1D,
          "GlobalMaxPool1D": GlobalMaxPooling1D, "GlobalAveragePooling2D": GlobalAveragePooling2D,
          "GlobalAvgPool2D": GlobalAveragePooling2D, "GlobalMaxPooling2D": GlobalMaxPooling2D,
          "GlobalMaxPool2D": GlobalMaxPooling2D}

present_as_keras({Reshape: "layers.reshaping.reshape", Lambda: "layers.core.lambda_layer",
                  GlobalAveragePooling1D: "layers.pooling.global_average_pooling1d",
                  GlobalMaxPooling1D: "layers.pooling.global_max_pooling1d",
                  GlobalAveragePooling2D: "layers.pooling.global_average_pooling2d",
                  GlobalMaxPooling2D: "layers.pooling.global_max_pooling2d"})
