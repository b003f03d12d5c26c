"""Keras 3 ``Sequential``: a stack of layers that builds as a functional model once its input shape is known.

Keras builds the stack as soon as it has an input shape (an ``Input`` added first, a first layer
given ``input_shape=``, or the first call's inputs), calling the layers on KerasTensors in the
model's name scope: weights are ``sequential/dense/kernel``, created in stack order.
"""

from __future__ import annotations

from typing import Any

from runtime.keras import present_as_keras
from runtime.keras.functional import Functional, InputLayer, _get_layer, _takes
from runtime.keras.keras_tensor import KerasTensor
from runtime.keras.layers import Layer, Model


class Sequential(Model):
    def __init__(self, layers: Any = None, trainable: bool = True, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, **kwargs)
        object.__setattr__(self, "_functional", None)
        for layer in layers or []:
            self.add(layer, rebuild=False)
        if layers:
            self._maybe_rebuild()

    def add(self, layer: Any, rebuild: bool = True) -> None:
        if not self._layers and getattr(layer, "_input_shape_arg", None) is not None:
            self.add(InputLayer(shape=layer._input_shape_arg))
        if isinstance(layer, KerasTensor) and isinstance(layer._keras_history.operation, InputLayer):
            layer = layer._keras_history.operation
        if not isinstance(layer, Layer):
            raise ValueError(  # noqa: TRY004  (Keras raises ValueError)
                f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer} (of type {type(layer)})")
        if any(other.name == layer.name for other in self._layers):
            raise ValueError(f"All layers added to a Sequential model should have unique names. Name "
                             f"'{layer.name}' is already the name of a layer in this model. Update the `name` "
                             "argument to pass a unique name.")
        if isinstance(layer, InputLayer) and self._layers and isinstance(self._layers[0], InputLayer):
            raise ValueError(f"Sequential model '{self.name}' has already been configured to use input shape "
                             f"{self._layers[0].batch_shape}. You cannot add a different Input layer to it.")
        self._layers.append(layer)
        if rebuild:
            self._maybe_rebuild()
        else:
            self.built = False
            object.__setattr__(self, "_functional", None)

    def pop(self, rebuild: bool = True) -> Layer:
        layer = self._layers.pop()
        self.built = False
        object.__setattr__(self, "_functional", None)
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self) -> None:
        self.built = False
        object.__setattr__(self, "_functional", None)
        if self._layers and isinstance(self._layers[0], InputLayer) and len(self._layers) > 1:
            self.build(self._layers[0].batch_shape)  # in the model's name scope (``_scoped_build``)
            self.built = True

    def build(self, input_shape: Any = None) -> None:
        if not self._layers:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no layers. Call "
                             "`model.add(layer)`.")
        shape = tuple(input_shape)
        if isinstance(self._layers[0], InputLayer):
            if self._layers[0].batch_shape != shape:
                raise ValueError(f"Sequential model '{self.name}' has already been configured to use input shape "
                                 f"{self._layers[0].batch_shape}. You cannot build it with input_shape {shape}")
        else:
            self._layers.insert(0, InputLayer(batch_shape=shape, dtype=self._layers[0].compute_dtype))
        inputs = self._layers[0].output
        x = inputs
        for layer in self._layers[1:]:
            x = layer(x)
        object.__setattr__(self, "_functional", Functional(inputs=inputs, outputs=x))

    @property
    def layers(self) -> list:
        layers = list(self._layers)
        return layers[1:] if layers and isinstance(layers[0], InputLayer) else layers

    def _built_functional(self, what: str) -> Functional:
        if self._functional is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined {what} yet.")
        return self._functional

    @property
    def inputs(self) -> list:
        return self._built_functional("inputs").inputs

    @property
    def outputs(self) -> list:
        return self._built_functional("outputs").outputs

    @property
    def input_shape(self) -> Any:
        return self._built_functional("input shape").input_shape

    @property
    def output_shape(self) -> Any:
        return self._built_functional("output shape").output_shape

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        return _get_layer(self, name, index)

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if self._functional is not None:
            return self._functional.call(inputs, training=training, mask=mask)
        x = inputs
        for layer in self.layers:
            x = layer(x, training=training) if training is not None and _takes(layer, "training") else layer(x)
        return x

    def __repr__(self) -> str:
        return f"<Sequential name={self.name}, built={self.built}>"


present_as_keras({Sequential: "models.sequential"})
