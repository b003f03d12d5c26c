"""Emitted lines kept within the file's line length, wrapped the way black wraps a call.

The limit is the file's own longest line, or 100 when its lines are all shorter: a line the
user wrote is never longer than that, so only lines the rewrite made (or lengthened) wrap. A
statement's outermost call opens after its parenthesis with its arguments on one indented
line; when they still do not fit, one argument per line with a trailing comma, then the same one
call in, or on the call a method is called on (`Manager(...).save(...)`). Statements that
already span lines, and lines with no call to open, are left as they are.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from .codegen import code

DEFAULT_LIMIT = 100
_INDENT = "    "


def line_limit(text: str) -> int:
    """The file's own maximum line length, at least DEFAULT_LIMIT."""
    return max([DEFAULT_LIMIT, *(len(line) for line in text.splitlines())])


def _newline(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), indent=True, last_line=cst.SimpleWhitespace(indent),
    )


def _outermost_call(stmt: cst.SimpleStatementLine) -> cst.Call | None:
    if len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    value = getattr(small, "value", None)
    return value if isinstance(value, cst.Call) and value.args else None


def _hugged(call: cst.Call, level: int = 0) -> cst.Call:
    """`f(a, b)` → `f(\n    a, b\n)`, `level` parentheses deep."""
    args = list(call.args)
    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=_newline(_INDENT * level))
    return call.with_changes(whitespace_before_args=_newline(_INDENT * (level + 1)), args=args)


def _exploded(call: cst.Call, level: int = 0) -> cst.Call:
    """`f(a, b)` → one argument per line, each with its comma."""
    inner, outer = _INDENT * (level + 1), _INDENT * level
    args = [
        arg.with_changes(
            comma=cst.Comma(whitespace_after=_newline(inner if i < len(call.args) - 1 else outer)),
            whitespace_after_arg=cst.SimpleWhitespace(""),
        )
        for i, arg in enumerate(call.args)
    ]
    return call.with_changes(whitespace_before_args=_newline(inner), args=args)


def _variants(call: cst.Call, level: int = 0) -> Iterator[cst.Call]:
    """Ever shorter lines: the arguments hugged, one per line, then the longest argument's own
    call opened the same way one level in (one path down, so a few variants per call)."""
    yield _hugged(call, level)
    exploded = _exploded(call, level)
    yield exploded
    calls = [(len(code(arg.value)), i) for i, arg in enumerate(exploded.args)
             if isinstance(arg.value, cst.Call) and arg.value.args]
    if not calls or level >= 3:
        return
    _, i = max(calls)
    arg = exploded.args[i]
    for inner in _variants(arg.value, level + 1):  # type: ignore[arg-type]
        args = list(exploded.args)
        args[i] = arg.with_changes(value=inner)
        yield exploded.with_changes(args=args)


def _chain(call: cst.Call) -> list[cst.Call]:
    """A call and the calls it is a method of (`m(...).save(...)` → the save, then `m(...)`)."""
    chain = [call]
    func = call.func
    while isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
        if func.value.args:
            chain.append(func.value)
        func = func.value.func
    return chain


class _Wrap(cst.CSTTransformer):
    def __init__(self, limit: int, module: cst.Module) -> None:
        super().__init__()
        self.limit = limit
        self.module = module
        self.depth = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        # a compound statement with no long line is left whole, unvisited
        if isinstance(node, cst.BaseCompoundStatement) and self._fits(self._text(node)):  # type: ignore[arg-type]
            return False
        return super().on_visit(node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return False  # judged whole in leave_SimpleStatementLine

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.depth += 1

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        self.depth -= 1
        return updated

    def _text(self, stmt: cst.BaseStatement) -> str:
        return self.module.code_for_node(stmt.with_changes(leading_lines=[]))

    def _fits(self, text: str) -> bool:
        indent = len(self.module.default_indent) * self.depth
        return all(indent + len(line) <= self.limit for line in text.splitlines())

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        text = self._text(updated)
        if self._fits(text):
            return updated
        call = _outermost_call(updated)
        if call is None or "\n" in text.rstrip("\n") or updated.trailing_whitespace.comment is not None:
            return updated
        deepest = updated
        for target in _chain(call):  # `a(...).b(...)`: the outer call first, then its receiver's
            for wrapped in _variants(target):
                candidate = updated.deep_replace(target, wrapped)
                if self._fits(self._text(candidate)):  # type: ignore[arg-type]
                    return candidate  # type: ignore[return-value]
                if target is call:
                    deepest = candidate  # type: ignore[assignment]
        return deepest  # the calls opened as deep as they go: as short as its lines get


def wrap_long_lines(module: cst.Module, limit: int) -> cst.Module:
    """The module with each statement longer than `limit` wrapped (the same object when none is).

    Only the top-level statements holding a long line are visited: a visit renders each of its
    statements, and a big module has few long lines."""
    wrap = _Wrap(limit, module)
    body = [
        stmt if all(len(line) <= limit for line in module.code_for_node(stmt).splitlines()) else stmt.visit(wrap)
        for stmt in module.body
    ]
    if all(new is old for new, old in zip(body, module.body)):
        return module
    return module.with_changes(body=body)  # type: ignore[arg-type]
