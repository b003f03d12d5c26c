"""A step whose every call drops its result returns nothing.

`sess.run(step, feed_dict=...)` for an update (`step = tf.assign_sub(coef, 0.2 * grad)`) becomes
a step function computing the update, and, made like every step, it returned the fetched value:
`step = coef.assign_sub(0.2 * grad)` / `return step`, while each call (`decrement_coef(xs, ys)`)
drops it. A person writes the update as a statement. In a `tf.function` an unreturned value with
no effect is not computed at all, and the update runs as before: what the program computes and
prints is the same.
"""

from __future__ import annotations

from collections import Counter

import libcst as cst

from .codegen import code
from .graph import names_read
from .walk import walk


def _is_step(func: cst.FunctionDef) -> bool:
    return any(code(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) == "tf.function"
               for d in func.decorators)


def _bare_calls(module: cst.Module) -> tuple[Counter[str], Counter[str]]:
    """How often each name is called as a statement of its own, and how often it is read."""
    bare: Counter[str] = Counter()
    for node in walk(module):
        if (isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)
                and isinstance(node.value.func, cst.Name)):
            bare[node.value.func.value] += 1
    own = {id(n.name) for n in walk(module) if isinstance(n, cst.FunctionDef)}
    return bare, Counter(n.value for n in names_read(module) if id(n) not in own)


def _without_return(func: cst.FunctionDef) -> cst.FunctionDef | None:
    """The step without its final `return name` (or `return [a, b]`), each name's assignment
    a plain statement when nothing else reads it; None when the step does not end so."""
    body = list(func.body.body)  # type: ignore[union-attr]
    last = body[-1] if body else None
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1
            and isinstance(last.body[0], cst.Return) and last.body[0].value is not None):
        return None
    value = last.body[0].value
    if isinstance(value, cst.Name):
        returned = [value.value]
    elif isinstance(value, (cst.List, cst.Tuple)) and all(isinstance(e.value, cst.Name) for e in value.elements):
        returned = [e.value.value for e in value.elements]  # type: ignore[attr-defined]
    else:
        return None  # a computed value: the step keeps it
    if any(line.comment is not None for line in last.leading_lines):
        return None  # the return's comment has nowhere to go
    rest = body[:-1]
    reads = Counter(n.value for s in rest for n in names_read(s))
    for i, stmt in enumerate(rest):
        target = _assigned(stmt)
        if target in returned and reads[target] == 1:  # its own target: no statement reads it
            rest[i] = stmt.with_changes(body=[cst.Expr(stmt.body[0].value)])  # type: ignore[attr-defined]
    return func.with_changes(body=func.body.with_changes(body=rest)) if rest else None


def _assigned(stmt: cst.BaseStatement) -> str | None:
    """The name `name = <call>` binds."""
    if (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)
            and isinstance(stmt.body[0].value, cst.Call)):
        return stmt.body[0].targets[0].target.value
    return None


class _Steps(cst.CSTTransformer):
    def __init__(self, droppable: set[str]) -> None:
        super().__init__()
        self.droppable = droppable
        self.depth = 0  # inside a class body: methods are called from elsewhere too

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.depth += 1
        return True

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.depth -= 1
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if self.depth or updated.name.value not in self.droppable or not _is_step(updated):
            return updated
        return _without_return(updated) or updated


def drop_unused_returns(module: cst.Module) -> cst.Module:
    """The module with each step that is only ever called as a statement returning nothing."""
    defs = Counter(n.name.value for n in walk(module) if isinstance(n, cst.FunctionDef))
    bare, reads = _bare_calls(module)
    droppable = {name for name, count in bare.items() if defs[name] == 1 and count == reads[name]}
    if not droppable:
        return module
    return module.visit(_Steps(droppable))
