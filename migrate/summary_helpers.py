"""Summary helpers: functions that only attach TensorBoard summaries, inlined where called.

TF1 tutorials attach summaries in a helper (`variable_summaries(var)`: mean, stddev, max, min
and a histogram under a name scope). The helper returns nothing: its summaries reach the
program only through `merge_all`. Inlined at each call, its tensors and summary ops become
graph statements of the calling scope, which the program move returns from the step that
fetches the merge, tagged with the name scopes TF1 gave them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .api_table import SUMMARY_OPS
from .codegen import ReplaceNames, copy_lines, is_docstring, record_line
from .graph import call_args, names_read
from .imports import Aliases
from .rules.session import SESSION_CALLS
from .walk import walk


def static_string(expr: cst.BaseExpression) -> str | None:
    """The value of a string expression built from literals (`"summaries_" + "weights"`)."""
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        left, right = static_string(expr.left), static_string(expr.right)
        return None if left is None or right is None else left + right
    return None


@dataclass
class NameScopes:
    """TF1's graph names taken so far: a name used again gets `_1`, `_2`, ... as TF1 did."""

    taken: dict[str, int] = field(default_factory=dict)

    def unique(self, name: str) -> str:
        count = self.taken.get(name, 0)
        self.taken[name] = count + 1
        return f"{name}_{count}" if count else name


def _calls(node: cst.CSTNode) -> list[cst.Call]:
    return [n for n in walk(node) if isinstance(n, cst.Call)]


def summary_helpers(module: cst.Module, aliases: Aliases) -> dict[str, cst.FunctionDef]:
    """Module functions that make summaries, return nothing and run no session, every call
    of which is a statement of its own passing names or literals: those can be inlined."""
    found: dict[str, cst.FunctionDef] = {}
    for func in module.body:
        if not isinstance(func, cst.FunctionDef) or func.decorators or not _plain_params(func):
            continue
        paths = [aliases.resolve(c.func) or "" for c in _calls(func)]
        if not any(p in SUMMARY_OPS for p in paths) or any(p in SESSION_CALLS for p in paths):
            continue
        if any(
            isinstance(n, (cst.Return, cst.Yield, cst.FunctionDef, cst.Global, cst.Nonlocal))
            for n in walk(func.body)
        ):
            continue
        statements = call_statements(module, func.name.value)
        # the function's name is read only to call it
        reads = [n for n in names_read(module) if n.value == func.name.value and n is not func.name]
        if (
            statements
            and len(reads) == len(statements)
            and all(_simple_args(c) for c in statements)
        ):
            found[func.name.value] = func
    return found


def _plain_params(func: cst.FunctionDef) -> bool:
    params = func.params
    return not (
        params.posonly_params
        or params.kwonly_params
        or params.star_kwarg
        or isinstance(params.star_arg, cst.Param)
    )


def _simple_args(call: cst.Call) -> bool:
    """Arguments that may be repeated where the parameter is read: names and literals."""
    return all(
        not a.star and isinstance(a.value, (cst.Name, cst.SimpleString, cst.Integer, cst.Float))
        for a in call.args
    )


def call_statements(module: cst.Module, name: str) -> list[cst.Call]:
    """Calls of `name` that are whole expression statements."""
    return [
        small.value
        for n in walk(module)
        if isinstance(n, cst.SimpleStatementLine)
        and len(n.body) == 1
        and isinstance(small := n.body[0], cst.Expr)
        and isinstance(small.value, cst.Call)
        and isinstance(small.value.func, cst.Name)
        and small.value.func.value == name
    ]


def helper_call(
    stmt: cst.BaseStatement, helpers: dict[str, cst.FunctionDef]
) -> cst.FunctionDef | None:
    """The helper a statement `helper(args)` calls."""
    if not (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.Call)
    ):
        return None
    func = stmt.body[0].value.func
    return helpers.get(func.value) if isinstance(func, cst.Name) else None


def inline_call(
    stmt: cst.SimpleStatementLine, helper: cst.FunctionDef, taken: set[str], lines: dict[int, int]
) -> list[cst.BaseStatement] | None:
    """The helper's body for one call: parameters replaced by the arguments, locals renamed
    where the calling code (`taken`) already uses their names."""
    call = stmt.body[0].value  # type: ignore[attr-defined]
    params = helper.params.params
    bound = call_args(call, tuple(p.name.value for p in params))
    mapping: dict[str, str] = {}
    for p in params:
        value = bound.get(p.name.value, p.default)
        if value is None:
            return None  # a missing argument: Python raises at the call, leave it there
        mapping[p.name.value] = cst.Module([]).code_for_node(value)
    for local in sorted(_locals(helper) - mapping.keys()):
        name, n = local, 2
        while name in taken:
            name = f"{local}_{n}"
            n += 1
        taken.add(name)
        if name != local:
            mapping[local] = name
    body = [s for s in helper.body.body if not is_docstring(s)]  # type: ignore[union-attr]
    out: list[cst.BaseStatement] = []
    for i, s in enumerate(body):
        new = s.visit(ReplaceNames(mapping))
        copy_lines(s, new, lines)
        if i == 0:
            new = new.with_changes(leading_lines=list(stmt.leading_lines))
            record_line(lines, new, lines.get(id(stmt), 0))
        out.append(new)  # type: ignore[arg-type]
    return out


def _locals(func: cst.FunctionDef) -> set[str]:
    """Names the function's body binds."""
    found: set[str] = set()
    for n in walk(func.body):
        if isinstance(n, cst.AssignTarget | cst.For | cst.CompFor):
            target = n.target
            found.update(
                m.value
                for m in names_read(target)
                if isinstance(target, cst.Name | cst.Tuple | cst.List)
            )
        elif isinstance(n, cst.AsName) and isinstance(n.name, cst.Name):
            found.add(n.name.value)
    return found
