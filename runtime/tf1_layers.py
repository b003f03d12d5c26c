"""``tf.compat.v1.layers`` functions: variables via get_variable, as TF1 created them."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import initializers
from runtime.convert import convert_to_tensor
from runtime.keras import activations
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.variable_scope import get_variable, variable_scope


def dense(inputs: Any, units: int, activation: Any = None, use_bias: bool = True,
          kernel_initializer: Any = None, bias_initializer: Any = None, kernel_regularizer: Any = None,
          bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
          bias_constraint: Any = None, trainable: bool = True, name: str | None = None, reuse: Any = None) -> Any:
    x = convert_to_tensor(inputs)
    with variable_scope(name, default_name="dense", reuse=reuse):
        kernel = get_variable("kernel", [x.shape[-1], units], dtype=x.dtype, initializer=kernel_initializer,
                              regularizer=kernel_regularizer, trainable=trainable)
        out = M.matmul(x, kernel) if x.shape.rank == 2 else _tensordot(x, kernel)
        if use_bias:
            bias = get_variable("bias", [units], dtype=x.dtype,
                                initializer=bias_initializer or initializers.Zeros(),
                                regularizer=bias_regularizer, trainable=trainable)
            out = N.bias_add(out, bias)
        act = activations.get(activation)
        return act(out) if act is not None else out


def _tensordot(x: Any, kernel: Any) -> Any:
    flat = A.reshape(x, [-1, x.shape[-1]])
    out = M.matmul(flat, kernel)
    return A.reshape(out, A.concat([A.shape(x)[:-1], [kernel.shape[-1]]], 0))


def conv2d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = (1, 1), activation: Any = None,
           use_bias: bool = True, kernel_initializer: Any = None, bias_initializer: Any = None,
           kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
           kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
           name: str | None = None, reuse: Any = None) -> Any:
    x = convert_to_tensor(inputs)
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    with variable_scope(name, default_name="conv2d", reuse=reuse):
        kernel = get_variable("kernel", [kh, kw, x.shape[-1], filters], dtype=x.dtype,
                              initializer=kernel_initializer, regularizer=kernel_regularizer, trainable=trainable)
        out = N.conv2d(x, kernel, strides=strides, padding=padding.upper())
        if use_bias:
            bias = get_variable("bias", [filters], dtype=x.dtype,
                                initializer=bias_initializer or initializers.Zeros(), trainable=trainable)
            out = N.bias_add(out, bias)
        act = activations.get(activation)
        return act(out) if act is not None else out


def max_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Any:
    return N.max_pool(inputs, pool_size, strides, padding.upper(), name=name)


def average_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Any:
    return N.avg_pool(inputs, pool_size, strides, padding.upper(), name=name)


def dropout(inputs: Any, rate: float = 0.5, noise_shape: Any = None, seed: Any = None,
            training: Any = False, name: str | None = None) -> Any:
    from runtime.control_flow import cond

    x = convert_to_tensor(inputs)
    if isinstance(training, bool):
        return N.dropout_v2(x, rate, seed=seed) if training else M.identity(x)
    return cond(training, lambda: N.dropout_v2(x, rate, seed=seed), lambda: M.identity(x))


def flatten(inputs: Any, name: str | None = None, data_format: str = "channels_last") -> Any:
    x = convert_to_tensor(inputs)
    rest = x.shape.as_list()[1:]
    return A.reshape(x, [-1, int(np.prod(rest))], name=name)
