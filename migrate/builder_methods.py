"""A graph class's builder method inlined into `__init__` (TF102).

Estimator classes of RL and tutorial code build their graph in a helper `__init__` calls once
(`with tf.variable_scope(scope): self._build_model()`), then run it in other methods. Inlined
where it is called, the helper's statements are `__init__`'s own, which the graph-class
conversion reads as the graph its methods run; the helper's docstring stays as a comment.
"""

from __future__ import annotations

import libcst as cst

from .codegen import copy_lines, inner_comments, is_docstring
from .graph import names_read
from .report import Finding
from .rules.session import RULE
from .scope_reads import bound_names
from .walk import walk


def _self_call(stmt: cst.BaseStatement) -> str | None:
    """`self.NAME()` as a statement: NAME."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)):
        return None
    call = stmt.body[0].value
    if isinstance(call, cst.Call) and not call.args and isinstance(call.func, cst.Attribute) \
            and isinstance(call.func.value, cst.Name) and call.func.value.value == "self":
        return call.func.attr.value
    return None


def _inlinable(method: cst.FunctionDef) -> bool:
    """Takes only `self`, returns nothing, and defines nothing a statement of `__init__` cannot."""
    params = method.params
    if method.decorators or method.asynchronous or len(params.params) != 1 or params.star_arg not in (
            cst.MaybeSentinel.DEFAULT, None) or params.kwonly_params or params.star_kwarg or params.posonly_params:
        return False
    blocked = (cst.Return, cst.Yield, cst.Await, cst.Global, cst.Nonlocal, cst.FunctionDef, cst.ClassDef, cst.Lambda)
    return params.params[0].name.value == "self" and not any(isinstance(n, blocked) for n in walk(method.body))


def _body(method: cst.FunctionDef, leading: list[cst.EmptyLine], lines: dict[int, int]) -> list[cst.BaseStatement]:
    """The method's statements, its docstring and the call's comments above the first."""
    stmts = list(method.body.body)  # type: ignore[union-attr]
    notes = [*leading, *(line for line in method.leading_lines if line.comment is not None)]
    if stmts and is_docstring(stmts[0]) and len(stmts) > 1:
        doc = stmts[0].body[0].value.evaluated_value  # type: ignore[attr-defined]
        text = doc.strip() if isinstance(doc, str) else ""
        notes += [cst.EmptyLine(comment=cst.Comment(f"# {line}".rstrip())) for line in text.splitlines()]
        notes += inner_comments(stmts[0])
        stmts = stmts[1:]
    if not notes:
        return stmts
    first = stmts[0].with_changes(leading_lines=[*notes, *stmts[0].leading_lines])
    copy_lines(stmts[0], first, lines)
    return [first, *stmts[1:]]


def inline_builder_methods(
    cls: cst.ClassDef, module: cst.Module, lines: dict[int, int], findings: list[Finding],
) -> cst.ClassDef:
    """The class with each method `__init__` calls once as `self.NAME()`, and nothing else
    names, inlined at that call; the class as it was when there is none."""
    members = list(cls.body.body)  # type: ignore[union-attr]
    init = next((m for m in members if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
    if init is None:
        return cls
    methods = {m.name.value: m for m in members if isinstance(m, cst.FunctionDef)}
    named = [n.attr.value for n in walk(module) if isinstance(n, cst.Attribute)]
    init_names = {n.value for n in names_read(init)} | bound_names(init)
    calls = {id(s): name for s in walk(init.body) if isinstance(s, cst.BaseStatement) and (name := _self_call(s))}
    chosen = {
        sid: name for sid, name in calls.items()
        if name in methods and name != "__init__" and named.count(name) == 1 and _inlinable(methods[name])
        and not bound_names(methods[name].body) & init_names
    }
    if not chosen:
        return cls

    class Inline(cst.CSTTransformer):
        def leave_SimpleStatementLine(
            self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine,
        ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
            name = chosen.get(id(original))
            if name is None:
                return updated
            lead = [*original.leading_lines, *inner_comments(original)]
            return cst.FlattenSentinel(_body(methods[name], lead, lines))

    new_init = init.visit(Inline())
    assert isinstance(new_init, cst.FunctionDef)
    copy_lines(init, new_init, lines)
    gone = {id(methods[name]) for name in chosen.values()}
    for name in chosen.values():
        findings.append(Finding(RULE.id, lines.get(id(methods[name]), 0), 0,
                                f"method {name}() inlined into __init__, the one place calling it", "fixed"))
    body = [new_init if m is init else m for m in members if id(m) not in gone]
    new_cls = cls.with_changes(body=cls.body.with_changes(body=body))
    copy_lines(cls, new_cls, lines)
    return new_cls
