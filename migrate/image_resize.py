"""TF1's image resizes as TF2's `tf.image.resize`, where the two compute the same numbers.

TF2's resize samples at half-pixel centres; TF1's resize_bilinear and resize_nearest_neighbor
sampled at the pixels' corners unless told `half_pixel_centers=True` (on TF 2.21 the two forms
part by up to 0.4 and 0.9 on values in [0, 1]), and TF1's resize_bicubic weighs neighbours
otherwise than TF2's. resize_area is one op in both. Any other call keeps TF1's function.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .codegen import code


@dataclass(frozen=True)
class Resize:
    method: str  # TF2's ResizeMethod, "" where none computes TF1's numbers
    params: tuple[str, ...]  # TF1 parameters in order
    centred: bool  # TF2's numbers need TF1's half_pixel_centers=True
    note: str  # why a call is kept as TF1's
    by_method: bool = False  # one function for every method (`resize_images`): AREA alone converts


_CORNERS = ("images", "size", "align_corners", "name", "half_pixel_centers")
_AT_CORNERS = "TF2's tf.image.resize samples at half-pixel centres, which this call did not ask for"
RESIZES: dict[str, Resize] = {
    "image.resize_area": Resize("AREA", ("images", "size", "align_corners", "name"), False,
                                "TF2's tf.image.resize aligns no corners"),
    "image.resize_bilinear": Resize("BILINEAR", _CORNERS, True, _AT_CORNERS),
    "image.resize_nearest_neighbor": Resize("NEAREST_NEIGHBOR", _CORNERS, True, _AT_CORNERS),
    "image.resize_bicubic": Resize("", _CORNERS, True, "TF2's bicubic resize weighs neighbours otherwise"),
    # its methods are resize_bilinear etc. at the corners (TF2 rejects them as integers)
    "image.resize_images": Resize(
        "AREA", ("images", "size", "method", "align_corners", "preserve_aspect_ratio", "name"), False,
        "TF2's tf.image.resize computes TF1's numbers for the AREA method only", by_method=True,
    ),
}
#: TF1's ResizeMethod values, as integers (TF2's are strings)
_METHODS = {"0": "BILINEAR", "1": "NEAREST_NEIGHBOR", "2": "BICUBIC", "3": "AREA"}


def _method(source: str) -> str:
    """The ResizeMethod a TF1 `method` argument names: `2`, `tf.image.ResizeMethod.BICUBIC`."""
    if source in _METHODS:
        return _METHODS[source]
    head, _, last = source.rpartition(".")
    return last if head.endswith("ResizeMethod") and last in _METHODS.values() else ""


def tf2_resize(path: str, call: cst.Call, alias: str) -> cst.BaseExpression | None:
    """`tf.image.resize(images, size, method=...)` computing what the TF1 call did; None when
    its arguments ask for what TF2's resize does not do."""
    spec = RESIZES[path]
    bound: dict[str, str] = {}
    for i, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (spec.params[i] if i < len(spec.params) else "")
        if arg.star or name not in spec.params or name in bound:
            return None
        bound[name] = code(arg.value)
    if (not spec.method or not {"images", "size"} <= bound.keys() or bound.get("align_corners", "False") != "False"
            or (spec.centred and bound.get("half_pixel_centers") != "True")
            or (spec.by_method and _method(bound.get("method", "0")) != spec.method)):
        return None
    kept = "".join(f", {k}={bound[k]}" for k in ("preserve_aspect_ratio", "name") if k in bound)
    return cst.parse_expression(
        f"{alias}.image.resize({bound['images']}, {bound['size']}, method={alias}.image.ResizeMethod.{spec.method}{kept})"
    )
