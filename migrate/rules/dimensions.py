"""TF119: TF1 ``Dimension.value`` on a shape's entry → the entry itself (an int in TF 2)."""

from __future__ import annotations

import ast

import libcst as cst

from migrate.report import Finding

from . import Rule

RULE = Rule(
    id="TF119",
    name="dimension-value",
    summary="Read a static dimension as an int: x.shape[i], not x.shape[i].value.",
    doc=(
        "TF 1.x shapes hold `Dimension` objects, read with `.value`; TF 2 shapes hold ints (or "
        "None), which have no `.value`. `x.get_shape()[i].value` and `x.shape[i].value` lose "
        "their `.value`. Only entries of a `.shape` or `.get_shape()` are changed: nothing else "
        "in Python answers `.shape[i].value`."
    ),
    kind="auto",
)


def _is_shape(node: cst.BaseExpression) -> bool:
    """``x.shape`` or ``x.get_shape()``."""
    if isinstance(node, cst.Attribute):
        return node.attr.value == "shape"
    return (
        isinstance(node, cst.Call)
        and not node.args
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "get_shape"
    )


def is_dimension_value(node: cst.Attribute) -> bool:
    return (
        node.attr.value == "value"
        and isinstance(node.value, cst.Subscript)
        and len(node.value.slice) == 1
        and isinstance(node.value.slice[0].slice, cst.Index)
        and _is_shape(node.value.value)
    )


class DimensionValues(cst.CSTTransformer):
    """Drops ``.value`` from every ``<shape>[i].value``, reporting each at its line.

    Enters only the ``hot`` subtrees (those holding a ``.value`` attribute): rebuilding the
    rest unchanged would cost as much as parsing it again.
    """

    def __init__(self, hot: set[int], lines: dict[int, int], findings: list[Finding]) -> None:
        super().__init__()
        self.hot = hot
        self.lines = lines
        self.findings = findings

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.hot

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if not is_dimension_value(updated_node):
            return updated_node
        line = self.lines.get(id(original_node), 0)
        self.findings.append(Finding(RULE.id, line, 0, "Dimension .value → int dimension", "fixed"))
        entry = updated_node.value
        return entry.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def dimension_values(nodes: list[ast.AST]) -> list[ast.Attribute]:
    """Every ``<shape>[i].value`` read in a stdlib tree (a TF1-only idiom)."""
    found = []
    for node in nodes:
        if not (
            isinstance(node, ast.Attribute)
            and node.attr == "value"
            and isinstance(node.value, ast.Subscript)
            and not isinstance(node.value.slice, ast.Slice)
        ):
            continue
        shape = node.value.value
        if (isinstance(shape, ast.Attribute) and shape.attr == "shape") or (
            isinstance(shape, ast.Call)
            and not shape.args
            and isinstance(shape.func, ast.Attribute)
            and shape.func.attr == "get_shape"
        ):
            found.append(node)
    return found
