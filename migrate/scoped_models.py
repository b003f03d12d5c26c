"""Functions that create variables under variable_scope → Keras Layer and Model classes (TF104)."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .graph import Scope
from .imports import Aliases
from .report import Finding, Unsupported
from .rules.variable_scope import RULE

VARIABLE_CREATORS = frozenset({"get_variable", "Variable"})


def _creates_variables(func: cst.FunctionDef, aliases: Aliases, layers: set[str]) -> bool:
    hit = False

    class Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal hit
            path = aliases.resolve(node.func)
            if path in VARIABLE_CREATORS or (path or "").startswith("layers."):
                hit = True
            if isinstance(node.func, cst.Name) and node.func.value in layers:
                hit = True

    func.visit(Finder())
    return hit


@dataclass
class ModelBuilder:
    aliases: Aliases
    lines: dict[int, int]
    findings: list[Finding]
    layer_classes: dict[str, str] = field(default_factory=dict)  # function -> Layer class
    model_instances: dict[str, str] = field(default_factory=dict)  # function -> instance name

    def is_model(self, name: str) -> bool:
        return name in self.model_instances

    def models_called(self, expr: cst.CSTNode) -> list[str]:
        found: list[str] = []

        class Finder(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if isinstance(node.func, cst.Name) and node.func.value in self_.model_instances:
                    found.append(self_.model_instances[node.func.value])

        self_ = self
        expr.visit(Finder())
        return found

    def convert_function(self, func: cst.FunctionDef, scope: Scope) -> list[cst.BaseStatement] | None:
        """Layer/Model classes for a variable-creating function; None if it creates none."""
        if not _creates_variables(func, self.aliases, set(self.layer_classes)):
            return None
        raise Unsupported(RULE.id, self.lines.get(id(func), 0), f"function {func.name.value} creates variables")
