"""Emitted lines kept within the file's line length, wrapped the way black wraps them.

The limit is the file's own longest line, or 100 when its lines are all shorter: a line the
user wrote is never longer than that, so only lines the rewrite made (or lengthened) wrap. A
statement's outermost call opens after its parenthesis with its arguments on one indented
line; when they still do not fit, one argument per line with a trailing comma, then the same one
call in, or on the call a method is called on (`Manager(...).save(...)`). A dict display or
a list comprehension opens the same way (its elements, or its element and its `for`). Statements that
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


#: What can open: a call with arguments, a dict display, a list comprehension.
Openable = cst.Call | cst.Dict | cst.ListComp


def _openable(node: cst.CSTNode | None) -> bool:
    return (isinstance(node, cst.Call) and bool(node.args)) or (isinstance(node, cst.Dict) and bool(node.elements)) \
        or isinstance(node, cst.ListComp)


def _outermost(stmt: cst.SimpleStatementLine) -> Openable | None:
    if len(stmt.body) != 1:
        return None
    value = getattr(stmt.body[0], "value", None)
    return value if _openable(value) else None  # type: ignore[return-value]


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


def _variants(node: Openable, level: int = 0) -> Iterator[Openable]:
    """Ever shorter lines for a call, dict or comprehension ``level`` brackets deep."""
    if isinstance(node, cst.Dict):
        yield from _dict_variants(node, level)
    elif isinstance(node, cst.ListComp):
        yield from _comprehension_variants(node, level)
    else:
        yield from _call_variants(node, level)


def _call_variants(call: cst.Call, level: int) -> Iterator[cst.Call]:
    """The arguments hugged, one per line, then the longest argument that opens opened the same
    way one level in (one path down, so a few variants per call)."""
    yield _hugged(call, level)
    exploded = _exploded(call, level)
    yield exploded
    if level >= 3:
        return
    for i, inner in _deeper([arg.value for arg in exploded.args], level):
        args = list(exploded.args)
        args[i] = args[i].with_changes(value=inner)
        yield exploded.with_changes(args=args)


def _deeper(values: list[cst.BaseExpression], level: int) -> Iterator[tuple[int, Openable]]:
    """The variants of the longest of ``values`` that opens, with its index."""
    found = [(len(code(v)), i) for i, v in enumerate(values) if _openable(v)]
    if found:
        _, i = max(found)
        for inner in _variants(values[i], level + 1):  # type: ignore[arg-type]
            yield i, inner


def _dict_variants(display: cst.Dict, level: int) -> Iterator[cst.Dict]:
    """`{k: v, ...}` with its elements on one indented line, then one per line with a trailing
    comma, then its longest value opened one level in."""
    inner, outer = _INDENT * (level + 1), _INDENT * level
    elements = list(display.elements)
    elements[-1] = elements[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    yield display.with_changes(lbrace=cst.LeftCurlyBrace(whitespace_after=_newline(inner)), elements=elements,
                               rbrace=cst.RightCurlyBrace(whitespace_before=_newline(outer)))
    exploded = display.with_changes(
        lbrace=cst.LeftCurlyBrace(whitespace_after=_newline(inner)),
        elements=[e.with_changes(comma=cst.Comma(whitespace_after=_newline(inner if i < len(elements) - 1 else outer)))
                  for i, e in enumerate(display.elements)],
        rbrace=cst.RightCurlyBrace(whitespace_before=cst.SimpleWhitespace("")),
    )
    yield exploded
    if level >= 3:
        return
    for i, value in _deeper([e.value for e in exploded.elements], level):
        new = list(exploded.elements)
        new[i] = new[i].with_changes(value=value)
        yield exploded.with_changes(elements=new)


def _comprehension_variants(comp: cst.ListComp, level: int) -> Iterator[cst.ListComp]:
    """`[elt for ...]` inside the brackets on one indented line, then the element and its `for`
    on lines of their own, then the element opened one level in."""
    inner, outer = _INDENT * (level + 1), _INDENT * level
    hugged = comp.with_changes(lbracket=cst.LeftSquareBracket(whitespace_after=_newline(inner)),
                               rbracket=cst.RightSquareBracket(whitespace_before=_newline(outer)))
    yield hugged
    split = hugged.with_changes(for_in=comp.for_in.with_changes(whitespace_before=_newline(inner)))
    yield split
    if level < 3 and _openable(comp.elt):
        for elt in _variants(comp.elt, level + 1):  # type: ignore[arg-type]
            yield split.with_changes(elt=elt)


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
        value = _outermost(updated)
        if value is None or "\n" in text.rstrip("\n") or updated.trailing_whitespace.comment is not None:
            return updated
        deepest = updated
        targets = _chain(value) if isinstance(value, cst.Call) else [value]
        for target in targets:  # `a(...).b(...)`: the outer call first, then its receiver's
            for wrapped in _variants(target):
                candidate = updated.deep_replace(target, wrapped)
                if self._fits(self._text(candidate)):  # type: ignore[arg-type]
                    return candidate  # type: ignore[return-value]
                if target is value:
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
