"""`tf.train.get_global_step()` → the module's global step variable (TF106).

TF1 finds the global step in the graph (its GLOBAL_STEP collection, else the variable named
`global_step`); TF2 has no graph to look in. When the module binds one name, once, to TF1's
global step (`global_step = tf.Variable(0, name="global_step", trainable=False)`,
`tf.train.get_or_create_global_step()`), each lookup is that name: `minimize(...,
global_step=tf.train.get_global_step())` increments it, a run fetching it reads it. A lookup
in a function binding the name itself stays (there the name is the function's own).
"""

from __future__ import annotations

import libcst as cst

from .codegen import copy_lines
from .graph import call_args
from .imports import Aliases
from .report import Finding
from .rules.optimizers import RULE
from .walk import walk

LOOKUPS = frozenset({"train.get_global_step", "contrib.framework.get_global_step"})
MAKERS = frozenset({
    "train.get_or_create_global_step", "train.create_global_step",
    "contrib.framework.get_or_create_global_step", "contrib.framework.create_global_step",
})
_VARIABLE_PARAMS = ("initial_value", "trainable", "collections", "validate_shape", "caching_device", "name")


def _global_step_name(module: cst.Module, aliases: Aliases) -> str | None:
    """The one top-level name bound, once, to TF1's global step."""
    found: list[str] = []
    for top in module.body:
        line = top.body[0] if isinstance(top, cst.SimpleStatementLine) and len(top.body) == 1 else None
        if not (isinstance(line, cst.Assign) and len(line.targets) == 1 and isinstance(line.targets[0].target, cst.Name)
                and isinstance(line.value, cst.Call)):
            continue
        path = aliases.resolve(line.value.func)
        named = call_args(line.value, _VARIABLE_PARAMS).get("name")
        if path in MAKERS or (path == "Variable" and isinstance(named, cst.SimpleString)
                              and named.evaluated_value == "global_step"):
            found.append(line.targets[0].target.value)
    top = {id(t) for t in _top_targets(module)}
    bound = [n for n in walk(module) if isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name)
             and n.target.value in found and id(n) not in top]
    return found[0] if len(found) == 1 and not bound else None


def _top_targets(module: cst.Module) -> list[cst.AssignTarget]:
    return [t for s in module.body if isinstance(s, cst.SimpleStatementLine)
            for a in s.body if isinstance(a, cst.Assign) for t in a.targets]


def _function_binds(func: cst.FunctionDef, name: str) -> bool:
    params = {p.name.value for p in (*func.params.params, *func.params.kwonly_params, *func.params.posonly_params)}
    targets = {t.value for n in walk(func.body) if isinstance(n, (cst.AssignTarget, cst.For))
               for t in walk(n.target) if isinstance(t, cst.Name)}
    return name in params | targets


def resolve_global_step(module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding]) -> cst.Module:
    """The module with its global step lookups read as the module's global step."""
    lookups = [n for n in walk(module) if isinstance(n, cst.Call) and not n.args and aliases.resolve(n.func) in LOOKUPS]
    if not lookups:
        return module
    name = _global_step_name(module, aliases)
    if name is None:
        return module
    parents: dict[int, cst.CSTNode] = {}
    owner: dict[int, cst.FunctionDef] = {}

    def index(node: cst.CSTNode, func: cst.FunctionDef | None) -> None:
        for child in node.children:
            parents[id(child)] = node
            if func is not None:
                owner[id(child)] = func
            index(child, child if isinstance(child, cst.FunctionDef) else func)

    index(module, None)
    chosen = {id(c) for c in lookups if id(c) not in owner or not _function_binds(owner[id(c)], name)}
    if not chosen:
        return module

    class Resolve(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            if id(original) not in chosen:
                return updated
            node: cst.CSTNode | None = original
            while node is not None and id(node) not in lines:
                node = parents.get(id(node))
            findings.append(Finding(RULE.id, lines.get(id(node), 0), 0,
                                    f"tf.{aliases.resolve(original.func)}() → {name}, the module's global step", "fixed"))
            return cst.Name(name)

    new = module.visit(Resolve())
    copy_lines(module, new, lines)
    return new
