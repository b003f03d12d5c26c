"""``tf.nn.conv2d_transpose``: TF's Conv2DBackpropInput run forward (NHWC).

The registered Conv2DBackpropInput kernel takes a tensor of the output's shape as its first
input (only its shape is read); its gradients (a Conv2D for the input, a Conv2DBackpropFilter
for the filter) are the ones TF registers for conv2d_transpose.
"""

from __future__ import annotations

from typing import Any

from runtime.convert import binary_operands, convert_to_tensor
from runtime.errors import Unsupported
from runtime.ops import array as A
from runtime.ops.nn import _norm2
from runtime.ops.registry import apply
from runtime.tensor import Tensor


def conv2d_transpose(input: Any, filters: Any = None, output_shape: Any = None, strides: Any = 1,
                     padding: str = "SAME", data_format: str = "NHWC", dilations: Any = None,
                     name: str | None = None, filter: Any = None) -> Tensor:
    """``filters`` is ``[height, width, out_channels, in_channels]``, as in TF."""
    if data_format not in ("NHWC", None) or dilations not in (None, 1, [1, 1, 1, 1], (1, 1)):
        raise Unsupported(f"tf.nn.conv2d_transpose with data_format={data_format} or dilations")
    w = filters if filters is not None else filter
    g, w = binary_operands("Conv2DBackpropInput", input, w)
    like = A.zeros(convert_to_tensor(output_shape, dtype_hint="int32"), dtype=g.dtype)
    return apply("Conv2DBackpropInput", [like, w, g], {"strides": _norm2(strides), "padding": padding.upper()},
                 name=name or "conv2d_transpose")


def output_length(size: int | None, kernel: int, stride: int, padding: str) -> int | None:
    """Keras's ``deconv_output_length`` without output padding."""
    if size is None:
        return None
    return size * stride if padding.lower() == "same" else size * stride + max(kernel - stride, 0)
