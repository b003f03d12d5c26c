"""Keras 3 ``Conv1D`` and the 1-D poolings, over [batch, steps, channels] (text and signal models)."""

from __future__ import annotations

from typing import Any

from runtime.errors import Unsupported
from runtime.keras import activations, present_as_keras, regularizers
from runtime.keras.input_spec import InputSpec
from runtime.keras.layers import Layer
from runtime.ops import array as A
from runtime.ops import conv_variants as CV
from runtime.ops import nn as N


def _one(v: Any) -> int:
    return int(v) if isinstance(v, int) else int(next(iter(v)))


class Conv1D(Layer):
    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = 1, groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if data_format not in (None, "channels_last") or _one(dilation_rate) != 1 or groups != 1:
            raise Unsupported("tf.keras.layers.Conv1D with channels_first, dilation or groups")
        if padding.lower() == "causal":
            raise Unsupported("tf.keras.layers.Conv1D with causal padding")
        self.input_spec = InputSpec(min_ndim=3)
        self.filters, self.kernel_size, self.strides = int(filters), _one(kernel_size), _one(strides)
        self.padding = padding.upper()
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def build(self, input_shape: Any) -> None:
        self.input_spec = InputSpec(min_ndim=3, axes={-1: input_shape[-1]})
        self.kernel = self.add_weight(name="kernel", shape=(self.kernel_size, input_shape[-1], self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None

    def call(self, inputs: Any) -> Any:
        x = CV.conv1d_v2(inputs, self.kernel, self.strides, self.padding)
        if self.bias is not None:
            x = N.bias_add(x, self.bias)
        return self.activation(x) if self.activation is not None else x


class _Pool1D(Layer):
    op: Any = None

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        if data_format not in (None, "channels_last"):
            raise Unsupported(f"tf.keras.layers.{type(self).__name__} with data_format={data_format!r}")
        self.input_spec = InputSpec(ndim=3)
        self.pool_size = _one(pool_size)
        self.strides = _one(strides) if strides is not None else self.pool_size
        self.padding = padding.upper()

    def call(self, inputs: Any) -> Any:
        pooled = type(self).op(A.expand_dims(inputs, 1), (1, self.pool_size), (1, self.strides), self.padding)
        return A.squeeze(pooled, [1])


class MaxPooling1D(_Pool1D):
    op = staticmethod(N.max_pool)


class AveragePooling1D(_Pool1D):
    op = staticmethod(N.avg_pool)


LAYERS = {"Conv1D": Conv1D, "Convolution1D": Conv1D, "MaxPooling1D": MaxPooling1D, "MaxPool1D": MaxPooling1D,
          "AveragePooling1D": AveragePooling1D, "AvgPool1D": AveragePooling1D}

present_as_keras({Conv1D: "layers.convolutional.conv1d", MaxPooling1D: "layers.pooling.max_pooling1d",
                  AveragePooling1D: "layers.pooling.average_pooling1d"})
