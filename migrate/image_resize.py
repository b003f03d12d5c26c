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


_CORNERS = ("images", "size", "align_corners", "name", "half_pixel_centers")
_AT_CORNERS = "TF2's tf.image.resize samples at half-pixel centres, which this call did not ask for"
RESIZES: dict[str, Resize] = {
    "image.resize_area": Resize("AREA", ("images", "size", "align_corners", "name"), False,
                                "TF2's tf.image.resize aligns no corners"),
    "image.resize_bilinear": Resize("BILINEAR", _CORNERS, True, _AT_CORNERS),
    "image.resize_nearest_neighbor": Resize("NEAREST_NEIGHBOR", _CORNERS, True, _AT_CORNERS),
    "image.resize_bicubic": Resize("", _CORNERS, True, "TF2's bicubic resize weighs neighbours otherwise"),
}


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
            or (spec.centred and bound.get("half_pixel_centers") != "True")):
        return None
    name = f", name={bound['name']}" if "name" in bound else ""
    return cst.parse_expression(
        f"{alias}.image.resize({bound['images']}, {bound['size']}, method={alias}.image.ResizeMethod.{spec.method}{name})"
    )
