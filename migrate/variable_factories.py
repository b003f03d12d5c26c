"""Functions that create variables and return them: what a call of one gives back.

Course code builds its weights in a function of no arguments
(`parameters = initialize_parameters()`, a dict of `tf.get_variable` results) and tutorials in
small helpers (`w = weight_variable([784, 10])`, one `tf.Variable`). A call of such a function is
a variable node of the program; what the function returns decides how its variables are
listed to a tape and an optimizer (`*parameters.values()` for a dict), so a structure this
does not follow keeps the program out of the move rather than train the wrong list.

A function of no arguments whose `tf.get_variable` calls stand at its top level (no scope, no
reuse) creates each once per call, as `tf.Variable` does: those calls are rewritten so.
"""

from __future__ import annotations

import libcst as cst

from .codegen import record_line
from .imports import Aliases
from .report import Finding
from .rules.get_variable import RULE as GET_VARIABLE_RULE
from .rules.get_variable import variable_from_get_variable
from .walk import walk

#: What a call of a factory returns: one variable, a dict or a list of them.
SINGLE, DICT, LIST = "single", "dict", "list"


def returned_structure(func: cst.FunctionDef, aliases: Aliases) -> str | None:
    """SINGLE, DICT or LIST for a function whose one `return` gives its variables as a name
    bound to a variable, or a dict or list literal of such names (or a name bound to one); None
    for any other function."""
    body = list(func.body.body)  # type: ignore[union-attr]
    returns = [n for n in walk(func.body) if isinstance(n, cst.Return)]
    if len(returns) != 1 or not body or not _is_return(body[-1]) or returns[0].value is None:
        return None
    made = _made_variables(body, aliases)
    literals = _literals(body)
    value = returns[0].value
    if isinstance(value, cst.Name) and value.value in literals:
        value = literals[value.value]
    if isinstance(value, cst.Name):
        return SINGLE if value.value in made else None
    if isinstance(value, cst.Call) and aliases.resolve(value.func) == "Variable":
        return SINGLE
    if isinstance(value, cst.Dict):
        items = [e.value for e in value.elements if isinstance(e, cst.DictElement)]
        ok = len(items) == len(value.elements) and all(isinstance(v, cst.Name) and v.value in made for v in items)
        return DICT if ok and items else None
    if isinstance(value, cst.List):  # (a tuple would read back as a tuple: not followed)
        ok = all(isinstance(e.value, cst.Name) and e.value.value in made for e in value.elements)
        return LIST if ok and value.elements else None
    return None


def _is_return(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Return)


def _assign(stmt: cst.BaseStatement) -> tuple[str, cst.BaseExpression] | None:
    """(name, value) of `name = value`."""
    if (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)):
        return stmt.body[0].targets[0].target.value, stmt.body[0].value
    return None


def _made_variables(body: list[cst.BaseStatement], aliases: Aliases) -> set[str]:
    """Names the body's top level binds once, each to a new variable."""
    made: dict[str, int] = {}
    for stmt in body:
        found = _assign(stmt)
        if found is not None and isinstance(found[1], cst.Call) and aliases.resolve(found[1].func) in (
                "Variable", "get_variable"):
            made[found[0]] = made.get(found[0], 0) + 1
    bound = [_assign(s)[0] for s in body if _assign(s) is not None]  # type: ignore[index]
    return {n for n, count in made.items() if count == 1 and bound.count(n) == 1}


def _literals(body: list[cst.BaseStatement]) -> dict[str, cst.BaseExpression]:
    """Names the body's top level binds once to a dict or list literal."""
    found = [a for a in map(_assign, body) if a is not None]
    names = [n for n, _ in found]
    return {n: v for n, v in found if names.count(n) == 1 and isinstance(v, (cst.Dict, cst.List, cst.Tuple))}


def get_variable_factory(
    func: cst.FunctionDef, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
) -> cst.FunctionDef | None:
    """The function with its `tf.get_variable` calls as `tf.Variable`, when it takes no
    arguments, makes each variable at its top level and returns them (`returned_structure`);
    None for any other function."""
    params = func.params
    if params.params or params.kwonly_params or params.posonly_params or not isinstance(
            params.star_arg, cst.MaybeSentinel) or params.star_kwarg is not None:
        return None
    body = list(func.body.body)  # type: ignore[union-attr]
    calls = [n for n in walk(func.body) if isinstance(n, cst.Call) and aliases.resolve(n.func) == "get_variable"]
    if not calls or returned_structure(func, aliases) is None:
        return None
    top = {id(v) for s in body if (a := _assign(s)) is not None for v in [a[1]]}
    if any(id(c) not in top for c in calls) or any(
            isinstance(n, cst.Call) and aliases.resolve(n.func) in ("variable_scope", "name_scope", "get_variable_scope")
            for n in walk(func.body)):
        return None
    new_body: list[cst.BaseStatement] = []
    for stmt in body:
        found = _assign(stmt)
        if found is None or not (isinstance(found[1], cst.Call) and aliases.resolve(found[1].func) == "get_variable"):
            new_body.append(stmt)
            continue
        line = lines.get(id(stmt), 0)
        source = variable_from_get_variable(found[1], "", aliases, line)
        small = stmt.body[0].with_changes(value=cst.parse_expression(source))  # type: ignore[attr-defined]
        new = stmt.with_changes(body=[small])
        record_line(lines, new, line)
        new_body.append(new)
    findings.append(Finding(GET_VARIABLE_RULE.id, lines.get(id(func), 0), 0,
                            f"{func.name.value}(): its variables created with tf.Variable, new ones each call as "
                            "TF1's get_variable made them outside a reusing scope", "fixed"))
    new_func = func.with_changes(body=func.body.with_changes(body=new_body))
    record_line(lines, new_func, lines.get(id(func), 0))
    return new_func

