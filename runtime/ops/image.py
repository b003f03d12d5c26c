"""Bilinear and nearest-neighbour image resizing. Both are separable linear maps, so each is two
einsums with constant interpolation matrices (rows: output pixels, columns: input pixels) built
with TF's sampling rules; Einsum's gradient is then the resize gradient, to any order."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from runtime import dtypes
from runtime.api_scopes import name_scope
from runtime.convert import constant, convert_to_tensor
from runtime.errors import Unsupported, invalid_argument
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops.linalg import einsum
from runtime.ops.registry import apply, register_simple
from runtime.tensor import Tensor


def _scale(in_size: int, out_size: int, align_corners: bool) -> float:
    if align_corners and out_size > 1:
        return (in_size - 1) / (out_size - 1)
    return in_size / out_size


def _bilinear_matrix(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """TF's compute_interpolation_weights: lower/upper source pixel and the lerp between them."""
    scale = np.float32(_scale(in_size, out_size, align_corners))
    out = np.zeros((out_size, in_size))
    for i in range(out_size):
        src = (np.float32(i) + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else np.float32(i) * scale
        lower_f = math.floor(src)
        lower, upper = max(lower_f, 0), min(math.ceil(src), in_size - 1)
        lerp = float(src) - lower_f
        out[i, lower] += 1.0 - lerp
        out[i, upper] += lerp
    return out


def _nearest_matrix(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    scale = np.float32(_scale(in_size, out_size, align_corners))
    out = np.zeros((out_size, in_size))
    for i in range(out_size):
        src = (np.float32(i) + np.float32(0.5)) * scale if half_pixel else np.float32(i) * scale
        j = min(math.floor(src + 0.5) if align_corners else math.floor(src), in_size - 1)  # roundf, src >= 0
        out[i, max(j, 0)] = 1.0
    return out


def _area_matrix(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """TF's resize_area: each output pixel averages the input box it covers, partial pixels
    weighed by their overlap (indices past the edge read the last pixel)."""
    scale = np.float32(_scale(in_size, out_size, align_corners))
    out = np.zeros((out_size, in_size))
    for i in range(out_size):
        start, end = np.float32(i) * scale, np.float32(i + 1) * scale
        for j in range(math.floor(start), math.ceil(end)):
            if j < start:
                weight = scale if j + 1 > end else j + 1 - start
            else:
                weight = end - j if j + 1 > end else 1.0
            out[i, min(j, in_size - 1)] += float(weight) / float(scale)
    return out


def _area_kernel(x: np.ndarray, mh: np.ndarray, mw: np.ndarray) -> np.ndarray:
    return np.einsum("pw,nowc->nopc", mw, np.einsum("oh,nhwc->nowc", mh, x)).astype(np.float32)


register_simple("ResizeArea", _area_kernel)

#: kernel name -> (weight matrix builder, TF's op name)
_KERNELS = {
    "bilinear": (_bilinear_matrix, "ResizeBilinear"),
    "nearest": (_nearest_matrix, "ResizeNearestNeighbor"),
    "area": (_area_matrix, "ResizeArea"),
}


def _resize(images: Any, size: Any, nearest: bool, align_corners: bool, half_pixel: bool,
            name: str | None, kernel: str = "") -> Tensor:
    if align_corners and half_pixel:
        op_type = "ResizeNearestNeighbor" if nearest else "ResizeBilinear"
        raise invalid_argument(f"If half_pixel_centers is True, align_corners must be False. [Op:{op_type}]")
    x = convert_to_tensor(images)
    rank = x.shape.rank
    if rank not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    if rank == 3:
        x = A.expand_dims(x, 0)
    new_h, new_w = (int(v) for v in np.asarray(A._concrete(size)).ravel())
    in_h, in_w = x.shape.as_list()[1:3]
    if in_h is None or in_w is None:
        raise Unsupported("tf.image.resize of images of unknown height or width")
    build, op_name = _KERNELS[kernel or ("nearest" if nearest else "bilinear")]
    if not nearest and x.dtype != dtypes.float32:
        x = M.cast(x, dtypes.float32)  # ResizeBilinear and ResizeArea always return float32
    dt = x.dtype.np
    mh = build(in_h, new_h, align_corners, half_pixel).astype(dt)
    mw = build(in_w, new_w, align_corners, half_pixel).astype(dt)
    with name_scope(name, "resize"):
        if op_name == "ResizeArea":  # one op, as TF's, which registers no gradient for it
            y = apply("ResizeArea", [x, constant(mh), constant(mw)])
        else:
            y = einsum("pw,nowc->nopc", mw, einsum("oh,nhwc->nowc", mh, x))
        # named after TF's kernel, which is the last op TF builds here
        return A.squeeze(y, [0]) if rank == 3 else M.identity(y, name=op_name)


def resize(images: Any, size: Any, method: Any = "bilinear", preserve_aspect_ratio: bool = False,
           antialias: bool = False, name: str | None = None) -> Tensor:
    """``tf.image.resize`` (TF2: half-pixel centers)."""
    if method not in vars(ResizeMethod).values():  # TF1's integers too
        raise ValueError(f"Resize method is not implemented: {method}")
    if method not in _KERNELS or preserve_aspect_ratio or antialias:
        raise Unsupported(f"tf.image.resize with method={method!r}, preserve_aspect_ratio or antialias")
    # TF2 samples at half-pixel centres; its area kernel is TF1's (no centres to place)
    return _resize(images, size, method == "nearest", False, method != "area", name, kernel=method)


#: TF 1.x ``tf.image.ResizeMethod`` values (ints) and TF2's names both select a kernel.
_V1_NEAREST = (1, "nearest")
_V1_BILINEAR = (0, "bilinear")
_V1_AREA = (3, "area")


def resize_images(images: Any, size: Any, method: Any = 0, align_corners: bool = False,
                  preserve_aspect_ratio: bool = False, name: str | None = None) -> Tensor:
    """TF 1.x ``tf.image.resize_images``: legacy sampling (no half-pixel centers); same size is a no-op."""
    if method not in _V1_NEAREST + _V1_BILINEAR + _V1_AREA or preserve_aspect_ratio:
        raise Unsupported(f"tf.image.resize_images with method={method!r} or preserve_aspect_ratio")
    x = convert_to_tensor(images)
    new = [int(v) for v in np.asarray(A._concrete(size)).ravel()]
    if x.shape.rank in (3, 4) and x.shape.as_list()[-3:-1] == new:
        return x
    return _resize(x, new, method in _V1_NEAREST, align_corners, False, name,
                   kernel="area" if method in _V1_AREA else "")


def resize_area(images: Any, size: Any, align_corners: bool = False, name: str | None = None) -> Tensor:
    return _resize(images, size, False, align_corners, False, name, kernel="area")


def resize_bilinear(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                    half_pixel_centers: bool = False) -> Tensor:
    return _resize(images, size, False, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                            half_pixel_centers: bool = False) -> Tensor:
    return _resize(images, size, True, align_corners, half_pixel_centers, name)


class ResizeMethod:
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


class ResizeMethodV1:
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3
