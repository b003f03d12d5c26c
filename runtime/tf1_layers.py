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
    N.configured_dropout(rate, seed)
    if isinstance(training, bool):
        return N.apply_dropout(x, rate, seed=seed) if training else M.identity(x)
    return cond(training, lambda: N.apply_dropout(x, rate, seed=seed), lambda: M.identity(x))


def flatten(inputs: Any, name: str | None = None, data_format: str = "channels_last") -> Any:
    x = convert_to_tensor(inputs)
    rest = x.shape.as_list()[1:]
    return A.reshape(x, [-1, int(np.prod(rest))], name=name)


def conv2d_transpose(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Any = None, use_bias: bool = True,
                     kernel_initializer: Any = None, bias_initializer: Any = None, kernel_regularizer: Any = None,
                     bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
                     bias_constraint: Any = None, trainable: bool = True, name: str | None = None,
                     reuse: Any = None) -> Any:
    """Kernel ``[kh, kw, filters, in_channels]``; output size ``in * stride`` (same) or
    ``in * stride + max(k - stride, 0)`` (valid)."""
    from runtime.ops.conv_transpose import conv2d_transpose as conv_t
    from runtime.ops.conv_transpose import output_length

    x = convert_to_tensor(inputs)
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    sh, sw = (strides, strides) if isinstance(strides, int) else strides
    with variable_scope(name, default_name="conv2d_transpose", reuse=reuse):
        kernel = get_variable("kernel", [kh, kw, filters, x.shape[-1]], dtype=x.dtype,
                              initializer=kernel_initializer, regularizer=kernel_regularizer, trainable=trainable)
        h, w = x.shape.as_list()[1:3]
        oh, ow = output_length(h, kh, sh, padding), output_length(w, kw, sw, padding)
        out_shape = A.stack([A.shape(x)[0], oh, ow, filters])
        out = conv_t(x, kernel, out_shape, strides=[1, sh, sw, 1], padding=padding.upper())
        if use_bias:
            bias = get_variable("bias", [filters], dtype=x.dtype, initializer=bias_initializer or initializers.Zeros(),
                                regularizer=bias_regularizer, trainable=trainable)
            out = N.bias_add(out, bias)
        act = activations.get(activation)
        return act(out) if act is not None else out


def batch_normalization(inputs: Any, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                        center: bool = True, scale: bool = True, beta_initializer: Any = None,
                        gamma_initializer: Any = None, moving_mean_initializer: Any = None,
                        moving_variance_initializer: Any = None, beta_regularizer: Any = None,
                        gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                        training: Any = False, trainable: bool = True, name: str | None = None, reuse: Any = None,
                        renorm: bool = False, renorm_clipping: Any = None, renorm_momentum: float = 0.99,
                        fused: Any = None, virtual_batch_size: Any = None, adjustment: Any = None) -> Any:
    """TF 1.x layer: batch statistics when training, moving averages otherwise; the moving
    updates go to UPDATE_OPS. Rank-4 inputs on the last axis take TF's fused path, whose
    moving variance gets the unbiased (n / (n - 1)) batch variance."""
    from runtime import context
    from runtime.control_flow import cond
    from runtime.graph import GraphKeys

    if renorm or virtual_batch_size is not None or adjustment is not None:
        from runtime.errors import Unsupported

        raise Unsupported("tf.layers.batch_normalization with renorm/virtual_batch_size/adjustment")
    x = convert_to_tensor(inputs)
    rank = x.shape.rank
    ax = axis % rank
    depth = x.shape[ax]
    axes = [i for i in range(rank) if i != ax]
    fused_path = fused is not False and rank == 4 and ax == 3
    with variable_scope(name, default_name="batch_normalization", reuse=reuse):
        gamma = get_variable("gamma", [depth], dtype=x.dtype, initializer=gamma_initializer or initializers.Ones(),
                             regularizer=gamma_regularizer, trainable=trainable) if scale else None
        beta = get_variable("beta", [depth], dtype=x.dtype, initializer=beta_initializer or initializers.Zeros(),
                            regularizer=beta_regularizer, trainable=trainable) if center else None
        moving_mean = get_variable("moving_mean", [depth], dtype=x.dtype, trainable=False,
                                   initializer=moving_mean_initializer or initializers.Zeros())
        moving_var = get_variable("moving_variance", [depth], dtype=x.dtype, trainable=False,
                                  initializer=moving_variance_initializer or initializers.Ones())
        shape = [1] * rank
        shape[ax] = depth

        def view(t: Any) -> Any:
            return None if t is None else A.reshape(t, shape)

        def stats(use_batch: bool) -> tuple:
            if not use_batch:
                return moving_mean._as_tensor(), moving_var._as_tensor()
            return N.moments(x, axes)

        def output(use_batch: bool) -> Any:
            mean, var = stats(use_batch)
            return N.batch_normalization(x, view(mean), view(var), view(beta), view(gamma), epsilon)

        if isinstance(training, bool):
            out = output(training)
            if not training:
                return out
            mean, var = N.moments(x, axes)
            decay = 1.0 - momentum
        else:
            out = cond(training, lambda: output(True), lambda: output(False))
            mean, var = N.moments(x, axes)
            decay = cond(training, lambda: M.subtract(1.0, momentum), lambda: M.cast(0.0, x.dtype))
        if fused_path:
            n = M.cast(M.truediv(A.size(x), depth), x.dtype)
            var = M.multiply(var, M.truediv(n, M.maximum(M.subtract(n, 1.0), 1.0)))
        graph = context.get_default_graph()
        for variable, value in ((moving_mean, mean), (moving_var, var)):
            delta = M.multiply(M.subtract(variable._as_tensor(), value), decay)
            graph.add_to_collection(GraphKeys.UPDATE_OPS, variable.assign_sub(delta))
        return out
