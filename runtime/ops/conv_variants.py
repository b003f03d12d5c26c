"""conv1d and depthwise_conv2d, built from Conv2D as TF builds conv1d (so Conv2D's gradients,
to any order, serve them too)."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime.api_scopes import name_scope
from runtime.convert import binary_operands
from runtime.errors import Unsupported
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.tensor import Tensor


def _no_dilation(dilations: Any, api: str) -> None:
    if dilations is not None and any(int(d) != 1 for d in np.atleast_1d(dilations)):
        raise Unsupported(f"{api} with dilations")


def _stride1(stride: Any) -> int:
    s = [int(v) for v in np.atleast_1d(stride)]
    return s[1] if len(s) == 3 else s[0]


def conv1d_v2(input: Any, filters: Any, stride: Any, padding: str, data_format: str = "NWC",
              dilations: Any = None, name: str | None = None) -> Tensor:
    """``tf.nn.conv1d``: [batch, width, in] * [width, in, out] as a height-1 conv2d."""
    if data_format not in ("NWC", None):
        raise Unsupported(f"tf.nn.conv1d with data_format={data_format}")
    _no_dilation(dilations, "tf.nn.conv1d")
    x, w = binary_operands("Conv2D", input, filters)
    with name_scope(name, "conv1d"):
        y = N.conv2d(A.expand_dims(x, 1), A.expand_dims(w, 0), strides=[1, 1, _stride1(stride), 1], padding=padding)
        return A.squeeze(y, [1])


def conv1d(value: Any = None, filters: Any = None, stride: Any = None, padding: Any = None,
           use_cudnn_on_gpu: Any = None, data_format: Any = None, name: str | None = None,
           input: Any = None, dilations: Any = None) -> Tensor:
    return conv1d_v2(value if value is not None else input, filters, stride, padding,
                     data_format or "NWC", dilations, name)


def depthwise_conv2d_v2(input: Any, filter: Any, strides: Any, padding: str, data_format: Any = None,
                        dilations: Any = None, name: str | None = None) -> Tensor:
    """``tf.nn.depthwise_conv2d``: each input channel c convolved with filter[:, :, c, :] alone,
    output channel c * multiplier + m. Built as one conv2d with a block-diagonal filter."""
    if data_format not in ("NHWC", None):
        raise Unsupported(f"tf.nn.depthwise_conv2d with data_format={data_format}")
    _no_dilation(dilations, "tf.nn.depthwise_conv2d")
    x, w = binary_operands("Conv2D", input, filter)
    kh, kw, c, mult = w.shape.as_list()
    if None in (kh, kw, c, mult):
        raise Unsupported("tf.nn.depthwise_conv2d with a filter of unknown shape")
    blocks = M.multiply(A.expand_dims(w, 3), np.eye(c, dtype=w.dtype.np)[None, None, :, :, None])
    full = A.reshape(blocks, [kh, kw, c, c * mult])
    return N.conv2d(x, full, strides=strides, padding=padding, name=name)


def depthwise_conv2d(input: Any, filter: Any, strides: Any, padding: str, rate: Any = None,
                     name: str | None = None, data_format: Any = None, dilations: Any = None) -> Tensor:
    return depthwise_conv2d_v2(input, filter, strides, padding, data_format,
                               dilations if dilations is not None else rate, name)
