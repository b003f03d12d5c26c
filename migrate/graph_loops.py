"""Python loops that build graph pieces: variables created once, computation replayed per step.

TF1 programs build repeated graph pieces with a Python loop at graph-building time:

    Y_pred = tf.Variable(0.0, name="bias")
    for pow_i in range(1, 4):
        W = tf.Variable(0.01 * pow_i, name="weight_%d" % pow_i)
        Y_pred = tf.add(tf.multiply(tf.pow(X, pow_i), W), Y_pred)

The loop both creates variables (once, in TF1 and TF2 alike) and computes tensors (replayed on
every step in TF2). It is split in two loops over the same values: the variables are created at
the top level, one list per loop variable, in the order and with the names TF1 gave them; the
computing loop iterates the values zipped with those lists and joins the graph model as one
tensor statement, replayed inside the step functions that read what it binds. A name the loop
carries from a variable (`Y_pred` above) takes the variable's TF1 name at the top level and is
bound to it just before the loop, so the step can rebind it.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .codegen import ReplaceNames, fill_lines, record_line
from .graph import INSIDE, Node, Scope, names_read
from .imports import Aliases
from .report import Finding
from .rules.graph_loops import RULE
from .walk import walk

#: Calls that create variables: a computing loop must make none of them.
VARIABLE_CALLS = frozenset({"Variable", "get_variable"})


@dataclass
class _Loop:
    """A graph-building loop: its variable statements and its computing statements."""

    stmt: cst.For
    target: str
    variables: list[tuple[str, cst.Call, cst.SimpleStatementLine]]
    compute: list[cst.SimpleStatementLine]


def split_graph_loops(
    body: list[cst.BaseStatement],
    aliases: Aliases,
    lines: dict[int, int],
    findings: list[Finding],
    fresh,
) -> list[cst.BaseStatement]:
    """`body` with each variable-creating graph loop split into its variables and its compute."""
    out = list(body)
    i = 0
    while i < len(out):
        loop = _graph_loop(out[i], aliases)
        if loop is None or _read_after(loop, out[i + 1 :]) or _shadows(loop, out[:i]):
            i += 1
            continue
        line = lines.get(id(loop.stmt), 0)
        before, carried = _carry(loop, out[:i], aliases, fresh, lines)
        made = _split(loop, carried, fresh, line, lines)
        findings.append(
            Finding(
                RULE.id,
                line,
                0,
                f"loop over {loop.target}: variables created once ({', '.join(v for v, _, _ in loop.variables)}"
                " listed per iteration), its computation replayed in the step",
                "fixed",
            )
        )
        out = before + made + out[i + 1 :]
        i += len(made)
    return out


def loop_node(stmt: cst.BaseStatement, scope: Scope, index: int, run_site) -> Node | None:
    """The tensor node a computing loop defines: what its body binds, from the nodes it reads."""
    if not (isinstance(stmt, cst.For) and stmt.orelse is None and stmt.body.body):
        return None
    assigns = [_single_assign(s) for s in stmt.body.body]
    if any(a is None for a in assigns) or any(run_site(a.value) for a in assigns):  # type: ignore[union-attr]
        return None
    deps = scope.deps_of(stmt)
    if not any(d.kind in INSIDE or d.kind == "placeholder" for d in deps):
        return None  # a loop over variables alone may run eagerly where it is
    names = tuple(dict.fromkeys(a.targets[0].target.value for a in assigns))  # type: ignore[union-attr]
    return Node(names, "tensor", stmt, stmt, index, deps)  # type: ignore[arg-type]


def _graph_loop(stmt: cst.BaseStatement, aliases: Aliases) -> _Loop | None:
    if not (
        isinstance(stmt, cst.For)
        and stmt.orelse is None
        and stmt.asynchronous is None
        and isinstance(stmt.target, cst.Name)
        and _replayable(stmt.iter)
    ):
        return None
    variables: list[tuple[str, cst.Call, cst.SimpleStatementLine]] = []
    compute: list[cst.SimpleStatementLine] = []
    for s in stmt.body.body:
        assign = _single_assign(s)
        if assign is None:
            return None
        value, name = assign.value, assign.targets[0].target.value  # type: ignore[attr-defined]
        creates = [
            c
            for c in walk(value)
            if isinstance(c, cst.Call) and aliases.resolve(c.func) in VARIABLE_CALLS
        ]
        if isinstance(value, cst.Call) and aliases.resolve(value.func) == "Variable":
            variables.append((name, value, s))  # type: ignore[arg-type]
        elif creates:
            return None
        else:
            compute.append(s)  # type: ignore[arg-type]
    if not variables or not compute:
        return None
    bound = {a.targets[0].target.value for s in compute for a in [_single_assign(s)]}  # type: ignore[union-attr]
    var_names = [v for v, _, _ in variables]
    if len(set(var_names)) != len(var_names) or bound & set(var_names):
        return None
    inner = bound | set(var_names)
    if any(n.value in inner for _, call, _ in variables for n in names_read(call)):
        return None  # a variable made from what the loop computes
    if sum(not _has_name(call) for _, call, _ in variables) > 1:
        return None  # one list per variable reorders creation: TF1's `Variable_<n>` numbering would move
    return _Loop(stmt, stmt.target.value, variables, compute)


def _replayable(expr: cst.BaseExpression) -> bool:
    """An iterable both loops can walk: a name, a literal list/tuple or a `range(...)`."""
    if isinstance(expr, (cst.Name, cst.List, cst.Tuple)):
        return True
    return (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Name)
        and expr.func.value == "range"
    )


def _single_assign(stmt: cst.BaseStatement) -> cst.Assign | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        if (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
        ):
            return small
    return None


def _has_name(call: cst.Call) -> bool:
    return any(a.keyword is not None and a.keyword.value == "name" for a in call.args)


def _literal_name(call: cst.Call) -> str | None:
    arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == "name"), None)
    if arg is not None and isinstance(arg.value, cst.SimpleString):
        value = arg.value.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _read_after(loop: _Loop, rest: list[cst.BaseStatement]) -> bool:
    """The loop variable or a per-iteration variable read after the loop: splitting loses it."""
    gone = {loop.target, *(v for v, _, _ in loop.variables)}
    return any(n.value in gone for s in rest for n in names_read(s))


def _shadows(loop: _Loop, before: list[cst.BaseStatement]) -> bool:
    """The loop variable or a per-iteration variable named like a value bound before the loop:
    the step's loop would make it local, and a replayed read of the earlier value would fail."""
    names = {loop.target, *(v for v, _, _ in loop.variables)}
    targets = [
        node.target if isinstance(node, (cst.AssignTarget, cst.For)) else node.name
        for s in before
        if not isinstance(s, (cst.FunctionDef, cst.ClassDef))
        for node in walk(s)
        if isinstance(node, (cst.AssignTarget, cst.For, cst.AsName))
    ]
    return any(isinstance(n, cst.Name) and n.value in names for t in targets for n in walk(t))


def _carried(loop: _Loop) -> list[str]:
    """Names the computing statements read before they bind them: values carried across
    iterations, the first from before the loop."""
    bound: set[str] = set()
    carried: list[str] = []
    for s in loop.compute:
        assign = _single_assign(s)
        assert assign is not None
        for n in names_read(assign.value):
            if (
                n.value not in bound
                and n.value not in carried
                and any(
                    _single_assign(t).targets[0].target.value == n.value
                    for t in loop.compute  # type: ignore[union-attr]
                )
            ):
                carried.append(n.value)
        bound.add(assign.targets[0].target.value)  # type: ignore[attr-defined]
    return carried


def _carry(
    loop: _Loop,
    before: list[cst.BaseStatement],
    aliases: Aliases,
    fresh,
    lines: dict[int, int],
) -> tuple[list[cst.BaseStatement], dict[str, str]]:
    """A carried name first bound to a variable: the variable takes a name of its own (its TF1
    name when that is free), as the step rebinds the carried name."""
    carried: dict[str, str] = {}
    out = list(before)
    for name in _carried(loop):
        at = next((j for j in range(len(out) - 1, -1, -1) if name in _bound_names(out[j])), None)
        assign = _single_assign(out[at]) if at is not None else None
        if (
            at is None
            or assign is None
            or not (
                isinstance(assign.value, cst.Call)
                and aliases.resolve(assign.value.func) == "Variable"
            )
        ):
            continue
        literal = _literal_name(assign.value)
        new = fresh(literal if literal and literal.isidentifier() else f"{name}_init")
        stmt = out[at]
        renamed = stmt.with_changes(
            body=[
                assign.with_changes(targets=[assign.targets[0].with_changes(target=cst.Name(new))])
            ]
        )
        record_line(lines, renamed, lines.get(id(stmt), 0))
        out[at] = renamed
        for j in range(at + 1, len(out)):
            out[j] = out[j].visit(ReplaceNames({name: new}))  # type: ignore[assignment]
        carried[name] = new
    return out, carried


def _bound_names(stmt: cst.BaseStatement) -> set[str]:
    assign = _single_assign(stmt)
    return {assign.targets[0].target.value} if assign is not None else set()  # type: ignore[attr-defined]


def _split(
    loop: _Loop, carried: dict[str, str], fresh, line: int, lines: dict[int, int]
) -> list[cst.BaseStatement]:
    """The variable lists, the carried names' first values, and the computing loop."""
    iterable = cst.Module([]).code_for_node(loop.stmt.iter)
    made: list[cst.BaseStatement] = []
    lists: list[str] = []
    for name, call, _ in loop.variables:
        listed = fresh(f"{name}_list")
        lists.append(listed)
        value = cst.Module([]).code_for_node(call)
        made.append(cst.parse_statement(f"{listed} = [{value} for {loop.target} in {iterable}]\n"))
    made += [cst.parse_statement(f"{name} = {first}\n") for name, first in carried.items()]
    targets = ", ".join([loop.target, *(v for v, _, _ in loop.variables)])
    header = cst.parse_statement(
        f"for {targets} in zip({iterable}, {', '.join(lists)}):\n    pass\n"
    )
    assert isinstance(header, cst.For)
    compute = loop.stmt.with_changes(
        target=header.target,
        iter=header.iter,
        body=loop.stmt.body.with_changes(body=loop.compute),
        leading_lines=[],
    )
    for stmt in made:
        fill_lines(stmt, line, lines)
    fill_lines(compute, line, lines)
    made.append(compute)
    made[0] = made[0].with_changes(leading_lines=loop.stmt.leading_lines)
    return made
