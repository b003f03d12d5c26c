"""``tf.contrib.layers`` as TF 1.15 had it (TF1 face only: TF 2.x has no ``tf.contrib``).

Layers create ``weights``/``biases`` with ``get_variable`` (so variable scopes, reuse and scope
regularizers apply) and add them to MODEL_VARIABLES too, as contrib's ``model_variable`` did.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, initializers
from runtime.convert import convert_to_tensor
from runtime.graph import GraphKeys
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.variable_scope import get_variable, variable_scope

_MODEL_COLLECTIONS = [GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
#: TF1's truncated normal divides the stddev by this; contrib wants sqrt(1.3 * factor / n).
_TRUNCATION = 0.87962566103423978


def variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN", uniform: bool = False,
                                 seed: Any = None, dtype: Any = None) -> initializers.VarianceScaling:
    """Uniform: limit sqrt(3 * factor / n); else truncated normal with stddev sqrt(1.3 * factor / n)."""
    if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")
    if uniform:
        return initializers.VarianceScaling(factor, mode.lower(), "uniform", seed, dtype)
    return initializers.VarianceScaling(1.3 * factor * _TRUNCATION ** 2, mode.lower(), "truncated_normal",
                                        seed, dtype)


def xavier_initializer(uniform: bool = True, seed: Any = None, dtype: Any = None) -> initializers.VarianceScaling:
    """Glorot: variance scaling with factor 1 over the fan average."""
    return variance_scaling_initializer(1.0, "FAN_AVG", uniform, seed, dtype)


def l2_regularizer(scale: float, scope: str | None = None) -> Any:
    """``scale * l2_loss(weights)``; scale 0 turns it off."""
    return _regularizer(scale, scope, "l2_regularizer", M.l2_loss)


def l1_regularizer(scale: float, scope: str | None = None) -> Any:
    """``scale * reduce_sum(abs(weights))``; scale 0 turns it off."""
    return _regularizer(scale, scope, "l1_regularizer", lambda w: M.reduce_sum(M.abs(w)))


def _regularizer(scale: float, scope: str | None, default: str, penalty: Any) -> Any:
    if isinstance(scale, (int, float)):
        if scale < 0.0:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale}")
        if scale == 0.0:
            return lambda _: None

    def regularize(weights: Any) -> Any:
        w = convert_to_tensor(weights)
        graph = context.get_default_graph()
        with graph.name_scope(scope or default) as name:
            my_scale = convert_to_tensor(scale, dtype=w.dtype)
            return M.multiply(my_scale, penalty(w), name=name.rstrip("/") or None)

    return regularize


def l1_l2_regularizer(scale_l1: float = 1.0, scale_l2: float = 1.0, scope: str | None = None) -> Any:
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def sum_regularizer(regularizer_list: list, scope: str | None = None) -> Any:
    def regularize(weights: Any) -> Any:
        terms = [t for t in (r(weights) for r in regularizer_list) if t is not None]
        return M.add_n(terms) if terms else None

    return regularize


def apply_regularization(regularizer: Any, weights_list: Any = None) -> Any:
    """Sum of ``regularizer`` over the weights (default: the WEIGHTS collection), recorded as a loss."""
    graph = context.get_default_graph()
    weights = weights_list if weights_list is not None else graph.get_collection(GraphKeys.WEIGHTS)
    if not weights:
        raise ValueError("No weights to regularize.")
    terms = [t for t in (regularizer(w) for w in weights) if t is not None]
    total = M.add_n(terms) if terms else convert_to_tensor(0.0)
    graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, total)
    return total


def _layer_variables(x: Any, kernel_shape: list, weights_initializer: Any, weights_regularizer: Any,
                     biases_initializer: Any, biases_regularizer: Any, trainable: bool,
                     variables_collections: Any) -> tuple:
    cols = _MODEL_COLLECTIONS + list(variables_collections or [])
    weights = get_variable("weights", kernel_shape, dtype=x.dtype, initializer=weights_initializer,
                           regularizer=weights_regularizer, trainable=trainable, collections=cols)
    if not context.executing_eagerly():
        context.get_default_graph().add_to_collection(GraphKeys.WEIGHTS, weights)
    biases = None
    if biases_initializer is not None:
        biases = get_variable("biases", [kernel_shape[-1]], dtype=x.dtype, initializer=biases_initializer,
                              regularizer=biases_regularizer, trainable=trainable, collections=cols)
        if not context.executing_eagerly():
            context.get_default_graph().add_to_collection(GraphKeys.BIASES, biases)
    return weights, biases


def _finish(out: Any, biases: Any, normalizer_fn: Any, normalizer_params: Any, activation_fn: Any) -> Any:
    if normalizer_fn is not None:
        out = normalizer_fn(out, **(normalizer_params or {}))
    elif biases is not None:
        out = N.bias_add(out, biases)
    return activation_fn(out) if activation_fn is not None else out


def fully_connected(inputs: Any, num_outputs: int, activation_fn: Any = M.relu, normalizer_fn: Any = None,
                    normalizer_params: Any = None, weights_initializer: Any = None,
                    weights_regularizer: Any = None, biases_initializer: Any = "zeros",
                    biases_regularizer: Any = None, reuse: Any = None, variables_collections: Any = None,
                    outputs_collections: Any = None, trainable: bool = True, scope: Any = None) -> Any:
    """Dense layer: relu by default, xavier weights, zero biases (none with a normalizer)."""
    x = convert_to_tensor(inputs)
    w_init = weights_initializer if weights_initializer is not None else xavier_initializer()
    b_init = initializers.Zeros() if biases_initializer == "zeros" else biases_initializer
    with variable_scope(scope, default_name="fully_connected", reuse=reuse):
        weights, biases = _layer_variables(x, [x.shape[-1], num_outputs], w_init, weights_regularizer,
                                           None if normalizer_fn else b_init, biases_regularizer, trainable,
                                           variables_collections)
        if x.shape.rank == 2:
            out = M.matmul(x, weights)
        else:
            flat = M.matmul(A.reshape(x, [-1, x.shape[-1]]), weights)
            out = A.reshape(flat, A.concat([A.shape(x)[:-1], [num_outputs]], 0))
        return _finish(out, biases, normalizer_fn, normalizer_params, activation_fn)


def conv2d(inputs: Any, num_outputs: int, kernel_size: Any, stride: Any = 1, padding: str = "SAME",
           data_format: Any = None, rate: int = 1, activation_fn: Any = M.relu, normalizer_fn: Any = None,
           normalizer_params: Any = None, weights_initializer: Any = None, weights_regularizer: Any = None,
           biases_initializer: Any = "zeros", biases_regularizer: Any = None, reuse: Any = None,
           variables_collections: Any = None, outputs_collections: Any = None, trainable: bool = True,
           scope: Any = None) -> Any:
    """2-D convolution (NHWC): scope ``Conv``, relu by default."""
    if rate != 1:
        from runtime.errors import Unsupported

        raise Unsupported("tf.contrib.layers.conv2d with rate != 1")
    x = convert_to_tensor(inputs)
    kh, kw = _pair(kernel_size)
    w_init = weights_initializer if weights_initializer is not None else xavier_initializer()
    b_init = initializers.Zeros() if biases_initializer == "zeros" else biases_initializer
    with variable_scope(scope, default_name="Conv", reuse=reuse):
        weights, biases = _layer_variables(x, [kh, kw, x.shape[-1], num_outputs], w_init, weights_regularizer,
                                           None if normalizer_fn else b_init, biases_regularizer, trainable,
                                           variables_collections)
        sh, sw = _pair(stride)
        out = N.conv2d(x, weights, strides=[1, sh, sw, 1], padding=padding.upper())
        return _finish(out, biases, normalizer_fn, normalizer_params, activation_fn)


def _pair(v: Any) -> tuple[int, int]:
    return (int(v), int(v)) if isinstance(v, (int, np.integer)) else (int(v[0]), int(v[1]))


def max_pool2d(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID",
               data_format: Any = None, outputs_collections: Any = None, scope: Any = None) -> Any:
    with context.get_default_graph().name_scope(scope or "MaxPool2D"):
        return N.max_pool(inputs, list(_pair(kernel_size)), list(_pair(stride)), padding.upper())


def avg_pool2d(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID",
               data_format: Any = None, outputs_collections: Any = None, scope: Any = None) -> Any:
    with context.get_default_graph().name_scope(scope or "AvgPool2D"):
        return N.avg_pool(inputs, list(_pair(kernel_size)), list(_pair(stride)), padding.upper())


def flatten(inputs: Any, outputs_collections: Any = None, scope: Any = None) -> Any:
    """Keep the batch dimension, flatten the rest."""
    x = convert_to_tensor(inputs)
    with context.get_default_graph().name_scope(scope or "Flatten"):
        rest = x.shape.as_list()[1:]
        if all(d is not None for d in rest):
            return A.reshape(x, [-1, int(np.prod(rest))])
        return A.reshape(x, A.stack([A.shape(x)[0], -1]))


def dropout(inputs: Any, keep_prob: float = 0.5, noise_shape: Any = None, is_training: Any = True,
            outputs_collections: Any = None, scope: Any = None, seed: Any = None) -> Any:
    from runtime import tf1_layers

    with context.get_default_graph().name_scope(scope or "Dropout"):
        return tf1_layers.dropout(inputs, rate=1 - keep_prob, noise_shape=noise_shape, seed=seed,
                                  training=is_training)


TABLE = {"fully_connected": fully_connected, "conv2d": conv2d, "convolution2d": conv2d,
         "max_pool2d": max_pool2d, "avg_pool2d": avg_pool2d, "flatten": flatten, "dropout": dropout,
         "xavier_initializer": xavier_initializer, "xavier_initializer_conv2d": xavier_initializer,
         "variance_scaling_initializer": variance_scaling_initializer, "l2_regularizer": l2_regularizer,
         "l1_regularizer": l1_regularizer, "l1_l2_regularizer": l1_l2_regularizer,
         "sum_regularizer": sum_regularizer, "apply_regularization": apply_regularization,
         "linear": lambda *a, **k: fully_connected(*a, **(k | {"activation_fn": None}))}
