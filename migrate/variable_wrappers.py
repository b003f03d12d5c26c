"""get_variable wrappers inlined at their calls (TF104).

TF1 tutorials create weights through small helpers (`_variable_on_cpu(name, shape, initializer)`
in the CIFAR-10 model, `weight_variable(name, shape)` elsewhere) whose body is one
`tf.get_variable` call, maybe under `with tf.device(...)`. The helper is not a layer: it
computes nothing. Inlined, each call is a `tf.get_variable` of the function that called it, which
the layer and model conversion then reads as that function's own weight. TF2 places variables
itself, so a device the helper pinned them to is dropped.

A `tf.Variable` helper (`def get_weight(shape): return tf.Variable(tf.truncated_normal(shape,
stddev=0.1))`, maybe through `initial = ...; return tf.Variable(initial)`) is inlined the same
way where only model functions call it (`def forward(x): w1 = get_weight([784, 500])`): their
weights are then the function's own `tf.Variable`s. Called at the top level, it stays a helper
whose calls are the program's variables.
"""

from __future__ import annotations

import libcst as cst

from .codegen import ATOMS, ReplaceNames, comments, copy_lines, inner_comments, is_docstring
from .graph import call_args, top_level_defs
from .imports import Aliases
from .loss_collection import (
    called_in_functions_only,
    losses_as_regularizers,
    variable_penalties_listed,
)
from .report import Finding
from .rules.variable_scope import RULE
from .walk import walk


def _created(stmts: list[cst.BaseStatement], aliases: Aliases, maker: str = "get_variable") -> tuple[cst.Call, bool] | None:
    """(the `maker` call, whether a `tf.device` block held it) of a wrapper's body."""
    if stmts and is_docstring(stmts[0]):
        stmts = stmts[1:]
    if len(stmts) == 1:
        value = _returned(stmts[0])
        ok = isinstance(value, cst.Call) and aliases.resolve(value.func) == maker
        return (value, False) if ok else None  # type: ignore[return-value]
    if maker == "Variable" and len(stmts) == 2:
        made = _from_initial(stmts, aliases)
        if made is not None:
            return made, False
    if len(stmts) != 2 or not isinstance(_returned(stmts[1]), cst.Name):
        return None
    name = _returned(stmts[1]).value  # type: ignore[union-attr]
    first, device = stmts[0], False
    if isinstance(first, cst.With):
        items = first.body.body
        device = (
            len(first.items) == 1
            and isinstance(first.items[0].item, cst.Call)
            and aliases.resolve(first.items[0].item.func) == "device"
            and first.items[0].asname is None
        )
        if not device or len(items) != 1:
            return None
        first = items[0]  # type: ignore[assignment]
    if not (
        isinstance(first, cst.SimpleStatementLine)
        and len(first.body) == 1
        and isinstance(first.body[0], cst.Assign)
    ):
        return None
    assign = first.body[0]
    if not (
        len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and assign.targets[0].target.value == name
        and isinstance(assign.value, cst.Call)
        and aliases.resolve(assign.value.func) == maker
    ):
        return None
    return assign.value, device


def _from_initial(stmts: list[cst.BaseStatement], aliases: Aliases) -> cst.Call | None:
    """`tf.Variable(<value>)` of `initial = <value>; return tf.Variable(initial)`."""
    first, value = stmts[0], _returned(stmts[1])
    if not (isinstance(value, cst.Call) and aliases.resolve(value.func) == "Variable" and value.args
            and value.args[0].keyword is None and isinstance(value.args[0].value, cst.Name)
            and isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1
            and isinstance(first.body[0], cst.Assign) and len(first.body[0].targets) == 1
            and isinstance(first.body[0].targets[0].target, cst.Name)):
        return None
    name = first.body[0].targets[0].target.value
    reads = [n for n in walk(value) if isinstance(n, cst.Name) and n.value == name]
    if value.args[0].value.value != name or len(reads) != 1:
        return None
    return value.with_changes(args=[value.args[0].with_changes(value=first.body[0].value), *value.args[1:]])


def _returned(stmt: cst.BaseStatement) -> cst.BaseExpression | None:
    if (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Return)
    ):
        return stmt.body[0].value
    return None


def _plain_params(func: cst.FunctionDef) -> list[cst.Param] | None:
    p = func.params
    if (
        p.star_arg not in (cst.MaybeSentinel.DEFAULT, None)
        or p.kwonly_params
        or p.star_kwarg
        or p.posonly_params
    ):
        return None
    return list(p.params)


class _Inline(cst.CSTTransformer):
    """Each call of a wrapper → its get_variable call with the call's arguments in place."""

    def __init__(self, name: str, params: list[cst.Param], created: cst.Call) -> None:
        super().__init__()
        self.name, self.params, self.created = name, params, created
        whole = {id(n.value) for n in walk(created) if isinstance(n, (cst.Arg, cst.Element))}
        # parameters read inside a larger expression: an argument there may need parentheses
        self.operands = {
            n.value for n in walk(created) if isinstance(n, cst.Name) and id(n) not in whole
        }
        self.failed = False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not (isinstance(original.func, cst.Name) and original.func.value == self.name):
            return updated
        names = [p.name.value for p in self.params]
        bound = call_args(updated, tuple(names))
        if (
            any(a.star for a in updated.args)
            or len(updated.args) > len(names)
            or set(bound) - set(names)
        ):
            self.failed = True
            return updated
        mapping: dict[str, str] = {}
        for param in self.params:
            value = bound.get(param.name.value, param.default)
            if value is None:
                self.failed = True
                return updated
            source = cst.Module([]).code_for_node(value)
            operand = param.name.value in self.operands
            mapping[param.name.value] = (
                f"({source})" if operand and not isinstance(value, ATOMS) else source
            )
        return self.created.visit(ReplaceNames(mapping))


def inline_variable_wrappers(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding], library: bool = False,
) -> cst.Module:
    """The module with each get_variable wrapper, called only by name, inlined and removed
    (a helper that also puts its weight's penalty in the 'losses' collection, when that is
    TF1's own regularizer, too)."""
    module = losses_as_regularizers(module, aliases, lines, findings, library)
    if not library:
        module = variable_penalties_listed(module, aliases, lines, findings)
    defs = top_level_defs(module)
    for name in list(defs):
        func = defs.get(name)  # looked up again: inlining an earlier wrapper into it rebuilt it
        if func is None:
            continue
        params = _plain_params(func)
        created = _created(list(func.body.body), aliases)  # type: ignore[arg-type]
        kind = "get_variable wrapper"
        if created is None and called_in_functions_only(module.with_changes(
                body=[s for s in module.body if s is not func]), name):
            created, kind = _created(list(func.body.body), aliases, "Variable"), "variable helper"  # type: ignore[arg-type]
        if params is None or created is None or func.decorators:
            continue
        rest = cst.Module([s for s in module.body if s is not func])
        uses = [n for n in walk(rest) if isinstance(n, cst.Name) and n.value == name]
        calls = {id(n.func) for n in walk(rest) if isinstance(n, cst.Call)}
        if not uses or any(id(u) not in calls for u in uses):
            continue  # passed as a value, or never called: the helper stays
        inliner = _Inline(name, params, created[0])
        new_rest = rest.visit(inliner)
        if inliner.failed:
            continue
        copy_lines(rest, new_rest, lines)  # an inlined call reports at the line that called it
        where = lines.get(id(func), 0)
        placed = " (its tf.device placement left to TF2)" if created[1] else ""
        findings.append(
            Finding(
                RULE.id,
                where,
                0,
                f"{kind} {name}() inlined at its calls{placed}",
                "fixed",
            )
        )
        kept = iter(new_rest.body)
        body = [next(kept) for s in module.body if s is not func]
        at = next(i for i, s in enumerate(module.body) if s is func)
        if at < len(body):  # the helper's comments stay, above what followed it
            notes = [*comments(func.leading_lines), *inner_comments(func)]
            noted = body[at].with_changes(leading_lines=[*body[at].leading_lines, *notes])
            copy_lines(body[at], noted, lines)
            body[at] = noted
        module = module.with_changes(body=body)
        defs = top_level_defs(module)
    return module
