"""Op seeds for the random initial values a model's layers draw in `build`.

TF1 built a model function's layers where it was called, each random initial value taking the
graph's next op seed. The converted layers draw them when first called (inside a step function,
which numbers its own ops), so each layer instance is given the op seed TF1's graph gave its
first draw (`ConvBlock(4, seed=0, name='conv1')`), counted from where the model is called.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .op_seeds import OpSeeds
from .variable_layers import SEED
from .walk import walk


@dataclass
class SeedPlan:
    """A model class's layers in creation order, each with the op seeds its weights draw and
    whether the count goes on past it (None: its draws are unknown)."""

    cls: str
    layers: list[tuple[str, tuple[int, bool] | None]]


@dataclass
class LayerSeeds:
    plans: dict[str, SeedPlan] = field(default_factory=dict)  # model function -> its plan
    numbered: dict[str, dict[str, int]] = field(
        default_factory=dict
    )  # model class -> attribute -> seed

    def number(self, function: str, seeds: OpSeeds) -> None:
        """The model of `function` is built here: its layers take the graph's next op seeds."""
        plan = self.plans.pop(function)
        found: dict[str, int] = {}
        for attr, known in plan.layers:
            if known is None or seeds.next is None:
                seeds.lose()
                break
            draws, counted = known
            if draws:
                found[attr] = seeds.next
                seeds.next += draws
            if not counted:
                seeds.lose()
                break
        if found:
            self.numbered[plan.cls] = found

    def written(self, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        """`body` with each numbered layer constructed with its seed."""
        if not self.numbered:
            return body
        numbered = self.numbered

        class Seeds(cst.CSTTransformer):
            def __init__(self) -> None:
                super().__init__()
                self.layers: list[dict[str, int]] = []

            def visit_ClassDef(self, node: cst.ClassDef) -> None:
                self.layers.append(numbered.get(node.name.value, {}))

            def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
                self.layers.pop()
                return updated

            def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
                target, call = updated.targets[0].target, updated.value
                layers = self.layers[-1] if self.layers else {}
                if not (
                    isinstance(target, cst.Attribute)
                    and isinstance(target.value, cst.Name)
                    and target.value.value == "self"
                    and target.attr.value in layers
                    and isinstance(call, cst.Call)
                ):
                    return updated
                return updated.with_changes(value=_with_seed(call, layers[target.attr.value]))

        def holds_model(stmt: cst.BaseStatement) -> bool:
            return any(isinstance(n, cst.ClassDef) and n.name.value in numbered for n in walk(stmt))

        # Only the models' classes are rebuilt: other statements keep their nodes (and source lines).
        return [stmt.visit(Seeds()) if holds_model(stmt) else stmt for stmt in body]  # type: ignore[misc]


def _with_seed(call: cst.Call, seed: int) -> cst.Call:
    """`Layer(4, name='conv1')` → `Layer(4, seed=0, name='conv1')`."""
    args = list(call.args)
    at = next(
        (i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == "name"),
        len(args),
    )
    equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
    args.insert(at, cst.Arg(cst.Integer(str(seed)), keyword=cst.Name(SEED), equal=equal))
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return call.with_changes(
        args=[
            a.with_changes(comma=comma if i < len(args) - 1 else cst.MaybeSentinel.DEFAULT)
            for i, a in enumerate(args)
        ]
    )
