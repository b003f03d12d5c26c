"""A name a session run binds to the value of what it named, given a name of its own (TF102).

Course code ends its training with `parameters = sess.run(parameters)`: from there the name
holds arrays, while the graph built before keeps reading the variables. In TF2 a step traced
after that line would read the arrays through the name. Renaming that binding, and every later
read of the name in the same function, to `parameters_value` keeps both meanings apart, and is
the same program in TF1: the renamed name is read nowhere else.

Only a name first bound to new variables, bound so outside loops (at the function's top level
or in its `with` blocks) and last, that no nested function or lambda reads, and with session
runs after it (which may make steps reading the variables), is renamed.
"""

from __future__ import annotations

import libcst as cst

from .codegen import ReplaceNames, copy_lines
from .imports import Aliases
from .report import Finding
from .rules.session import RULE
from .walk import walk


def rename_rebound_values(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
) -> cst.Module:
    """The module with each `name = sess.run(name)` (or `name = name.eval(...)`) of variables
    that later runs may read bound to `name_value`, and the later reads with it."""
    taken = {n.value for n in walk(module) if isinstance(n, cst.Name)}
    renamer = _Scopes(taken, aliases, lines, findings)
    new = module.visit(renamer)
    if not renamer.changed:
        return module  # the nodes, and so the lines recorded for them, stay
    copy_lines(module, new, lines)
    return new


class _Scopes(cst.CSTTransformer):
    def __init__(self, taken: set[str], aliases: Aliases, lines: dict[int, int], findings: list[Finding]) -> None:
        super().__init__()
        self.taken, self.aliases, self.lines, self.findings = taken, aliases, lines, findings
        self.changed = False

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        body = self._scope(list(updated.body.body), list(original.body.body))  # type: ignore[union-attr]
        return updated if body is None else updated.with_changes(body=updated.body.with_changes(body=body))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._scope(list(updated.body), list(original.body))
        return updated if body is None else updated.with_changes(body=body)

    def _scope(self, stmts: list[cst.BaseStatement], originals: list[cst.BaseStatement]) -> list[cst.BaseStatement] | None:
        """``originals``: the same statements as parsed, whose lines are recorded."""
        where = {id(new): self.lines.get(id(old), 0) for new, old in zip(_flat(stmts), _flat(originals))}
        candidates = [s for s in _flat(stmts) if _rebound_run(s) is not None]
        if not candidates:
            return None
        renames: dict[int, str] = {}
        flat = _flat(stmts)
        for stmt in candidates:
            name = _rebound_run(stmt)
            assert name is not None
            later = flat[flat.index(stmt) + 1:]
            if (_holds_variables(stmts, name, self.aliases) and any(map(_runs, later))
                    and _last_binding(stmts, stmt, name) and not _read_in_nested(stmts, name)):
                fresh = f"{name}_value"
                while fresh in self.taken:
                    fresh += "_"
                self.taken.add(fresh)
                renames[id(stmt)] = fresh
                self.findings.append(Finding(RULE.id, where.get(id(stmt), 0), 0, (
                    f"{name} bound to its value → {fresh}: the steps keep reading the variables by "
                    f"the name {name}, as TF1's graph did"), "fixed"))
        if not renames:
            return None
        self.changed = True
        body, _ = _renamed_block(stmts, renames)
        return body


def _rebound_run(stmt: cst.BaseStatement) -> str | None:
    """NAME of `NAME = <x>.run(NAME, ...)` or `NAME = NAME.eval(...)`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return None
    assign = stmt.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
        return None
    name, value = assign.targets[0].target.value, assign.value
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
        return None
    method, receiver = value.func.attr.value, value.func.value
    if method == "eval" and isinstance(receiver, cst.Name) and receiver.value == name:
        return name
    if method == "run" and value.args and value.args[0].keyword is None:
        fetch = value.args[0].value
        if isinstance(fetch, cst.Name) and fetch.value == name:
            return name
    return None


def _holds_variables(stmts: list[cst.BaseStatement], name: str, aliases: Aliases) -> bool:
    """Is ``name`` first bound to new variables: `tf.Variable(...)`, `tf.get_variable(...)`, or
    a call of the program's own function (`initialize_parameters()`)?"""
    for stmt in _flat(stmts):
        if (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
                and any(isinstance(t.target, cst.Name) and t.target.value == name for t in stmt.body[0].targets)):
            value = stmt.body[0].value
            return isinstance(value, cst.Call) and (
                (isinstance(value.func, cst.Name) and aliases.resolve(value.func) is None)
                or aliases.resolve(value.func) in ("Variable", "get_variable"))
    return False


def _runs(stmt: cst.BaseStatement) -> bool:
    """Does the statement run anything in a session (`.run(...)`, `.eval(...)`)?"""
    return any(isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in ("run", "eval")
               for n in walk(stmt))


def _flat(stmts: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """The statements of a block and of its `with` blocks, in order (not those in loops,
    branches or nested functions)."""
    out: list[cst.BaseStatement] = []
    for stmt in stmts:
        out.append(stmt)
        if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
            out.extend(_flat(list(stmt.body.body)))
    return out


def _bindings(node: cst.CSTNode, name: str) -> list[cst.CSTNode]:
    """The nodes binding `name` under ``node`` outside nested functions and classes."""
    found: list[cst.CSTNode] = []

    def visit(n: cst.CSTNode) -> None:
        if isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            if n.name.value == name:
                found.append(n)
            return
        targets: list[cst.CSTNode] = []
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor)):
            targets = [n.target]
        elif isinstance(n, cst.AsName):
            targets = [n.name]
        elif isinstance(n, (cst.Global, cst.Nonlocal)):
            targets = [i.name for i in n.names]
        elif isinstance(n, cst.Del):
            targets = [n.target]
        for target in targets:
            if any(isinstance(t, cst.Name) and t.value == name for t in walk(target)):
                found.append(n)
        for child in n.children:
            visit(child)

    visit(node)
    return found


def _last_binding(stmts: list[cst.BaseStatement], stmt: cst.BaseStatement, name: str) -> bool:
    """Is ``stmt`` the scope's last binding of ``name``, in source order, with an earlier one?"""
    all_bindings = [b for s in stmts for b in _bindings(s, name)]
    mine = _bindings(stmt, name)
    if len(mine) != 1 or all_bindings.index(mine[0]) == 0:
        return False
    return all_bindings[-1] is mine[0] and not any(isinstance(b, (cst.Global, cst.Nonlocal, cst.Del))
                                                   for b in all_bindings)


def _read_in_nested(stmts: list[cst.BaseStatement], name: str) -> bool:
    """Does a nested function, lambda or class of the scope spell ``name`` (other than one
    taking a parameter of that name)?"""
    for node in (n for s in stmts for n in walk(s)):
        if isinstance(node, (cst.FunctionDef, cst.Lambda)) and name in {p.name.value for p in node.params.params}:
            continue  # its parameter of that name is another variable
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and any(
                isinstance(n, cst.Name) and n.value == name for n in walk(node)):
            return True
    return False


def _renamed_block(
    stmts: list[cst.BaseStatement], renames: dict[int, str],
) -> tuple[list[cst.BaseStatement], dict[str, str]]:
    """The block with each renamed binding and every statement after it (and after the
    `with` holding it) reading the new name; the names renamed from here on."""
    out: list[cst.BaseStatement] = []
    active: dict[str, str] = {}
    for stmt in stmts:
        fresh = renames.get(id(stmt))
        if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
            inner, found = _renamed_block(list(stmt.body.body), renames)
            stmt = stmt.with_changes(body=stmt.body.with_changes(body=inner))
            if active:
                stmt = stmt.visit(ReplaceNames(active))  # type: ignore[assignment]
            active = {**active, **found}
        elif fresh is not None:
            name = _rebound_run(stmt)
            assign = stmt.body[0]  # type: ignore[attr-defined]
            stmt = stmt.with_changes(body=[assign.with_changes(targets=[cst.AssignTarget(cst.Name(fresh))])])
            active = {**active, str(name): fresh}
        elif active:
            stmt = stmt.visit(ReplaceNames(active))  # type: ignore[assignment]
        out.append(stmt)
    return out, active
