"""Keras 3 ``Conv2DTranspose`` (channels_last): kernel ``(kh, kw, filters, in_channels)``."""

from __future__ import annotations

from typing import Any

from runtime.errors import Unsupported
from runtime.keras import activations, present_as_keras, regularizers
from runtime.keras.layers import Layer, _pair
from runtime.ops import array as A
from runtime.ops import nn as N
from runtime.ops.conv_transpose import conv2d_transpose, output_length


class Conv2DTranspose(Layer):
    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 output_padding: Any = None, data_format: Any = None, dilation_rate: Any = (1, 1),
                 activation: Any = None, use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        if output_padding is not None or data_format not in (None, "channels_last") or _pair(dilation_rate) != (1, 1):
            raise Unsupported("tf.keras.layers.Conv2DTranspose with output_padding, channels_first or dilation")
        self.filters, self.kernel_size, self.strides = int(filters), _pair(kernel_size), _pair(strides)
        self.padding = padding.lower()
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer

    def build(self, input_shape: Any) -> None:
        self.kernel = self.add_weight(name="kernel", shape=(*self.kernel_size, self.filters, input_shape[-1]),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None

    def call(self, inputs: Any) -> Any:
        h, w = inputs.shape.as_list()[1:3]
        (kh, kw), (sh, sw) = self.kernel_size, self.strides
        shape = A.stack([A.shape(inputs)[0], output_length(h, kh, sh, self.padding),
                         output_length(w, kw, sw, self.padding), self.filters])
        x = conv2d_transpose(inputs, self.kernel, shape, strides=[1, sh, sw, 1], padding=self.padding.upper())
        if self.bias is not None:
            x = N.bias_add(x, self.bias)
        return self.activation(x) if self.activation is not None else x


present_as_keras({Conv2DTranspose: "layers.convolutional.conv2d_transpose"})
