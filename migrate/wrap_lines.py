"""Emitted lines kept within the file's line length, wrapped the way black wraps them.

The limit is the file's own longest line, or 100 when its lines are all shorter: a line the
user wrote is never longer than that, so only lines the rewrite made (or lengthened) wrap.

Each too-long line is split as black's stable style splits it, one mechanism all the way down:
a line that fits stays; a line inside brackets splits before its loosest operators (`+` before
`*`, `or` before a comparison, a comprehension before each `for` and `if`, a method chain
before each call after the first), each operand a line of its own; any other line opens at its
last bracket whose line up to it fits (`Manager(...)` of `Manager(...).save(...)` when the
`save(` line is too long). An opened bracket hugs its contents, on one indented line, when they
fit there; else a call, a dict or a `def`'s parameters take one element per line with a
trailing comma, a comprehension its element and each clause, a sole element its own split; a
list, set or tuple of two or more always takes one per line. And so on into each line still
too long. An assigned or returned value black splits in parentheses of its own when it has two
loosest operators or more (`x = a + b + c`), or when opening its brackets does no better; a
`with` header opens its last item's bracket, a `def` its parameters. Where black would split a
dict one element per line, it is hugged here when it fits (as this module always did).

A statement the user spread over lines is their layout, left as it is, unless a line the rewrite
made in it is too long: then it is joined and laid out anew, unless it holds a comment or a
multi-line string.
"""

from __future__ import annotations

import dataclasses
import io
import tokenize
from collections.abc import Callable, Iterator

import libcst as cst

from .codegen import code

DEFAULT_LIMIT = 100
_INDENT = "    "
_NONE = cst.SimpleWhitespace("")

#: black's priorities of the arithmetic operators: the loosest binding splits first (`**` never).
_MATH: dict[type, int] = {
    cst.BitOr: 9, cst.BitXor: 8, cst.BitAnd: 7, cst.LeftShift: 6, cst.RightShift: 6, cst.Add: 5,
    cst.Subtract: 5, cst.Multiply: 4, cst.Divide: 4, cst.FloorDivide: 4, cst.Modulo: 4,
    cst.MatrixMultiply: 4,
}


def line_limit(text: str) -> int:
    """The file's own maximum line length, at least DEFAULT_LIMIT."""
    return max([DEFAULT_LIMIT, *(len(line) for line in text.splitlines())])


def _newline(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), indent=True, last_line=cst.SimpleWhitespace(indent),
    )


def _first_line(node: cst.CSTNode) -> str:
    return code(node).split("\n", 1)[0]


def _prefix(element: cst.CSTNode) -> int:
    """Width of what precedes an element's value on its line (`name=`, `**`, `'key': `)."""
    bare = element.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if isinstance(bare, cst.Arg):
        bare = bare.with_changes(whitespace_after_arg=_NONE)
    return len(code(bare)) - len(code(element.value))  # type: ignore[attr-defined]


# ---- the operators a line splits before (black's delimiters) --------------------------------

def _chain(node: cst.BaseExpression) -> tuple[list[cst.BaseExpression], list[cst.CSTNode]] | None:
    """The operands and operators of a line's loosest binary or boolean operator, in order
    (`a + b * c - d` → a, b * c, d and `+`, `-`); None for any other expression."""
    same: Callable[[cst.CSTNode], bool]
    if isinstance(node, cst.BinaryOperation) and type(node.operator) in _MATH:
        level = _MATH[type(node.operator)]
        same = lambda n: (isinstance(n, cst.BinaryOperation) and not n.lpar
                          and _MATH.get(type(n.operator)) == level)
    elif isinstance(node, cst.BooleanOperation):
        same = lambda n: isinstance(n, cst.BooleanOperation) and not n.lpar
    else:
        return None
    operands: list[cst.BaseExpression] = []
    operators: list[cst.CSTNode] = []

    def walk(n: cst.BaseExpression) -> None:
        if same(n):
            walk(n.left)  # type: ignore[attr-defined]
            operators.append(n.operator)  # type: ignore[attr-defined]
            walk(n.right)  # type: ignore[attr-defined]
        else:
            operands.append(n)

    walk(node)
    return operands, operators


def _operator_count(node: cst.BaseExpression) -> int:
    """How many loosest operators a statement's value has (black parenthesizes it at two)."""
    if node.lpar:
        return 0
    if isinstance(node, cst.Comparison):
        return len(node.comparisons)
    if isinstance(node, cst.IfExp):
        return 2
    if isinstance(node, cst.Tuple):
        return len(node.elements) - 1
    chain = _chain(node)
    return len(chain[1]) if chain else 0


# ---- the brackets a line opens at (black's right_hand_split) --------------------------------

Comprehension = cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp


def _brackets(node: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The brackets of a line that can open, its last first: parentheses around it, a call with
    arguments, a dict, a comprehension; into a call's callee, an attribute's or a subscript's
    object, a lambda's body, an operator's operands (the right one first)."""
    if node.lpar:
        yield node
    elif isinstance(node, cst.Call):
        if node.args:
            yield node
        yield from _brackets(node.func)
    elif isinstance(node, cst.Subscript):
        yield node
        yield from _brackets(node.value)
    elif isinstance(node, cst.Attribute):
        yield from _brackets(node.value)
    elif (isinstance(node, (cst.Dict, cst.List, cst.Set)) and node.elements) \
            or isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp)):
        yield node
    elif isinstance(node, cst.Lambda):
        yield from _brackets(node.body)
    elif isinstance(node, (cst.UnaryOperation, cst.Await)):
        yield from _brackets(node.expression)
    elif isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
        yield from _brackets(node.right)
        yield from _brackets(node.left)
    elif isinstance(node, cst.Comparison):
        for target in reversed(node.comparisons):
            yield from _brackets(target.comparator)
        yield from _brackets(node.left)
    elif isinstance(node, cst.Tuple):
        for element in reversed(node.elements):
            yield from _brackets(element.value)


def _ends_in_bracket(node: cst.BaseExpression) -> bool:
    """Whether a value ends with a bracket black would open rather than parenthesize the value
    around its one operator: a call's with arguments, parentheses, a dict or comprehension."""
    while not node.lpar and isinstance(node, (cst.BinaryOperation, cst.BooleanOperation, cst.Comparison, cst.Tuple)):
        if isinstance(node, cst.Tuple):
            node = node.elements[-1].value
        else:
            node = node.comparisons[-1].comparator if isinstance(node, cst.Comparison) else node.right
    if node.lpar or (isinstance(node, (cst.Dict, cst.List, cst.Set)) and node.elements) \
            or isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp)):
        return True
    return isinstance(node, cst.Call) and bool(node.args)


def _call_dots(node: cst.BaseExpression) -> list[cst.Attribute]:
    """The attribute accesses of a trailer chain that follow a bracket (`.batch` and `.repeat`
    of `d.shuffle(n).batch(32).repeat(3)`), outermost first: black's lowest delimiters."""
    dots = []
    while not node.lpar and isinstance(node, (cst.Call, cst.Subscript, cst.Attribute)):
        if isinstance(node, cst.Attribute) and (node.value.lpar or isinstance(node.value, (cst.Call, cst.Subscript))):
            dots.append(node)
        node = node.func if isinstance(node, cst.Call) else node.value
    return dots


#: The bracket fields of each kind of bracket: (opening, closing, the field of its elements).
_FIELDS: dict[type, tuple[str, str, str | None]] = {
    cst.List: ("lbracket", "rbracket", "elements"), cst.ListComp: ("lbracket", "rbracket", None),
    cst.Subscript: ("lbracket", "rbracket", None), cst.Dict: ("lbrace", "rbrace", "elements"),
    cst.Set: ("lbrace", "rbrace", "elements"), cst.SetComp: ("lbrace", "rbrace", None),
    cst.DictComp: ("lbrace", "rbrace", None),
}
_OPENING = {"lbracket": cst.LeftSquareBracket, "lbrace": cst.LeftCurlyBrace, "lpar": cst.LeftParen}
_CLOSING = {"rbracket": cst.RightSquareBracket, "rbrace": cst.RightCurlyBrace, "rpar": cst.RightParen}
#: Displays black never hugs: with two elements or more, one per line.
_DISPLAYS = (cst.List, cst.Set, cst.Tuple)


def _fields(node: cst.BaseExpression) -> tuple[str, str, str | None]:
    if node.lpar:
        return "lpar", "rpar", "elements" if isinstance(node, cst.Tuple) else None
    if isinstance(node, cst.Call):
        return "", "", "args"  # its parentheses are fields of its arguments
    return _FIELDS[type(node)]


def _elements(node: cst.BaseExpression) -> list[cst.CSTNode]:
    field = _fields(node)[2]
    return list(getattr(node, field)) if field else []


def _bracketed(node: cst.BaseExpression, elements: list[cst.CSTNode] | None,
               after_open: cst.BaseParenthesizableWhitespace, before_close: cst.BaseParenthesizableWhitespace,
               ) -> cst.BaseExpression:
    """`node` with whitespace after its opening and before its closing bracket (and `elements`)."""
    opening, closing, field = _fields(node)
    changes: dict[str, object] = {field: elements} if field and elements is not None else {}
    if not opening:  # a call: after `(` a field of its own, before `)` its last argument's
        args = list(node.args if elements is None else elements)  # type: ignore[attr-defined]
        args[-1] = args[-1].with_changes(whitespace_after_arg=before_close)
        return node.with_changes(whitespace_before_args=after_open, args=args)
    wrap = (lambda x: [x]) if opening == "lpar" else (lambda x: x)
    changes[opening] = wrap(_OPENING[opening](whitespace_after=after_open))
    changes[closing] = wrap(_CLOSING[closing](whitespace_before=before_close))
    return node.with_changes(**changes)


def _hugged(node: cst.BaseExpression, level: int) -> cst.BaseExpression:
    """The bracket's contents on one line of their own, `level` brackets deep: `f(\n    a, b\n)`."""
    elements = _elements(node)
    if elements and not isinstance(node, cst.Tuple):  # a trailing comma goes (a tuple's stays)
        elements[-1] = elements[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return _bracketed(node, elements or None, _newline(_INDENT * (level + 1)), _newline(_INDENT * level))


def _one_per_line(elements: list[cst.CSTNode], level: int) -> list[cst.CSTNode]:
    """Each element on a line of its own `level` brackets deep, with its comma, the last too."""
    inner, outer = _INDENT * (level + 1), _INDENT * level
    out = []
    for i, element in enumerate(elements):
        comma = cst.Comma(whitespace_after=_newline(inner if i < len(elements) - 1 else outer))
        element = element.with_changes(comma=comma)
        if isinstance(element, cst.Arg):
            element = element.with_changes(whitespace_after_arg=_NONE)
        out.append(element)
    return out


class _Layout:
    """black's splitting of a statement's lines, `base` columns in, within `limit` columns."""

    def __init__(self, limit: int, base: int) -> None:
        self.limit = limit
        self.base = base

    def _column(self, level: int) -> int:
        return self.base + len(_INDENT) * level

    def _fits(self, node: cst.CSTNode, col: int, tail: int = 0) -> bool:
        lines = code(node).split("\n")
        widths = [col + len(lines[0]), *(self.base + len(line) for line in lines[1:])]
        widths[-1] += tail
        return max(widths) <= self.limit

    def line(self, node: cst.BaseExpression, level: int, col: int, tail: int) -> cst.BaseExpression:
        """`node` on a line of its own inside brackets, from column `col` with `tail` characters
        after it: as it is when it fits, else split before its loosest operators, else opened
        at a bracket."""
        if self._fits(node, col, tail):
            return node
        split = self._operators(node, level, col, tail)
        if split is not None:
            return split
        opened = self.opened(node, level, col)
        return node if opened is None else opened

    def opened(self, node: cst.BaseExpression, level: int, col: int, fallback: bool = True) -> cst.BaseExpression | None:
        """`node` opened at its last bracket whose line up to it fits from `col`; at its last
        bracket when none does (None then unless `fallback`, and when it has none)."""
        first = None
        for bracket in _brackets(node):
            open_ = self._open(bracket, level)
            new = open_ if bracket is node else node.deep_replace(bracket, open_)
            if col + len(_first_line(new)) <= self.limit:
                return new  # type: ignore[return-value]
            first = first or new
        return first if fallback else None  # type: ignore[return-value]

    def statement(self, value: cst.BaseExpression, col: int, head: str | None) -> cst.BaseExpression:
        """A statement's value laid out: opened at a bracket or, for a value black may put in
        parentheses of its own (`head`, the text before it, is given), split inside them, as
        black's right_hand_split chooses."""
        opened = self.opened(value, 0, col)
        if head is None or value.lpar:
            return value if opened is None else opened
        parens = self._open(value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]), 0)
        if not self._omits_parens(value):
            return parens
        if opened is None:  # no bracket to open: parentheses, unless the value cannot split and is too long
            alone = isinstance(value, (cst.Name, cst.SimpleString, cst.Integer, cst.Float))
            return value if alone and not self._fits(value, self._column(1)) else parens
        first = _first_line(opened)
        fits = col + len(first) <= self.limit
        if head.rstrip().endswith("=") and any(c in head for c in "([{") and col + 1 < self.limit \
                and not (fits or any(c in first for c in ")]}")):
            return parens  # `x[i] = (`: black keeps those parentheses when the bracket's line is no better
        if not fits and all(self.base + len(line) <= self.limit for line in code(parens).split("\n")[1:]) \
                and col + 1 <= self.limit:
            return parens  # black's second opinion: the parentheses, when all their lines fit
        return opened

    def _omits_parens(self, value: cst.BaseExpression) -> bool:
        """black's can_omit_invisible_parens: no loosest delimiter, or one dot after a call, or
        one operator (comma) with the value ending in a bracket whose line up to it fits, or
        that has another bracket before it."""
        count = _operator_count(value)
        if count == 0:
            return len(_call_dots(value)) < 2
        if count > 1 or not _ends_in_bracket(value):
            return False
        last = next(_brackets(value))
        upto = _first_line(value.deep_replace(last, _hugged(last, 0)))
        return self._column(1) + len(upto) <= self.limit or any(c in upto[:-1] for c in "([{")

    def _open(self, node: cst.BaseExpression, level: int) -> cst.BaseExpression:
        """A bracket opened `level` deep: hugged when its contents fit on their line, else one
        element per line (a sole element, or a comprehension's clauses, split as lines). A
        list, set or tuple of two or more never hugs (black's rule; a dict here does)."""
        hugged = _hugged(node, level)
        inner = self._column(level + 1)
        elements = _elements(node)
        if len(elements) > 1 and (isinstance(node, _DISPLAYS)
                                  or self.base + len(code(hugged).split("\n")[1]) > self.limit):
            laid = [e.with_changes(value=self.line(e.value, level + 1, inner + _prefix(e), 1))  # type: ignore[attr-defined]
                    for e in _one_per_line(elements, level)]
            return _bracketed(node, laid, _newline(_INDENT * (level + 1)), _NONE)
        if self.base + len(code(hugged).split("\n")[1]) <= self.limit:
            return hugged
        if len(elements) == 1:  # a sole argument or element split as a line of its own
            sole = _elements(hugged)[0]
            tail = 1 if isinstance(node, cst.Tuple) else 0
            value = self.line(sole.value, level + 1, inner + _prefix(sole), tail)  # type: ignore[attr-defined]
            return _bracketed(hugged, [sole.with_changes(value=value)], *self._ends(hugged))
        if node.lpar:
            body = self.line(node.with_changes(lpar=[], rpar=[]), level + 1, inner, 0)
            return body.with_changes(lpar=hugged.lpar, rpar=hugged.rpar)
        if isinstance(node, cst.Subscript):  # a sole index split as a line; a slice or several stay hugged
            index = node.slice[0].slice if len(node.slice) == 1 else None
            if not isinstance(index, cst.Index) or index.star:
                return hugged
            element = hugged.slice[0]  # type: ignore[attr-defined]
            value = self.line(index.value, level + 1, inner, 0)
            return hugged.with_changes(slice=[element.with_changes(slice=element.slice.with_changes(value=value))])
        if isinstance(node, (cst.Dict, cst.Call)):  # empty: nothing to open
            return hugged
        return self._clauses(hugged, level + 1, inner)  # type: ignore[arg-type]

    @staticmethod
    def _ends(hugged: cst.BaseExpression) -> tuple[cst.BaseParenthesizableWhitespace, cst.BaseParenthesizableWhitespace]:
        """The whitespace after a hugged bracket's opening and before its closing."""
        opening, closing, _ = _fields(hugged)
        if not opening:
            return hugged.whitespace_before_args, hugged.args[-1].whitespace_after_arg  # type: ignore[attr-defined]
        first, last = getattr(hugged, opening), getattr(hugged, closing)
        first, last = (first[0], last[0]) if opening == "lpar" else (first, last)
        return first.whitespace_after, last.whitespace_before

    def _clauses(self, comp: Comprehension, level: int, col: int) -> Comprehension:
        """A comprehension's element, each `for` and each `if` on lines of their own (a clause
        still too long split as the line its iterable or condition ends)."""
        newline, start = _newline(_INDENT * level), self._column(level)

        def laid(clause: cst.CompFor | cst.CompIf, field: str) -> cst.BaseExpression:
            value = getattr(clause, field)
            own = code(clause.with_changes(whitespace_before=_NONE, **(
                {"ifs": [], "inner_for_in": None} if isinstance(clause, cst.CompFor) else {})))
            return self.line(value, level, start + len(own) - len(code(value)), 0)

        def split(for_in: cst.CompFor) -> cst.CompFor:
            return for_in.with_changes(
                whitespace_before=newline, iter=laid(for_in, "iter"),
                ifs=[c.with_changes(whitespace_before=newline, test=laid(c, "test")) for c in for_in.ifs],
                inner_for_in=None if for_in.inner_for_in is None else split(for_in.inner_for_in))

        comp = comp.with_changes(for_in=split(comp.for_in))
        if isinstance(comp, cst.DictComp):
            key = len(code(comp.key)) + len(code(comp.whitespace_before_colon)) + 1 + len(code(comp.whitespace_after_colon))
            return comp.with_changes(value=self.line(comp.value, level, col + key, 0))
        return comp.with_changes(elt=self.line(comp.elt, level, col, 0))

    def _operators(self, node: cst.BaseExpression, level: int, col: int, tail: int) -> cst.BaseExpression | None:
        """The line broken before each of its loosest operators, each operand laid out as a line
        (black's delimiter split); None when it has none."""
        newline = _newline(_INDENT * level)
        if node.lpar:
            return None
        if isinstance(node, cst.GeneratorExp):  # a sole argument's, in the call's parentheses
            return self._clauses(node, level, col)
        if isinstance(node, cst.Lambda):  # its parameters are no delimiters, its body's operators are
            body = self._operators(node.body, level, col + len(code(node)) - len(code(node.body)), tail)
            return None if body is None else node.with_changes(body=body)
        if isinstance(node, cst.IfExp):
            column = self._column(level)
            return node.with_changes(
                body=self.line(node.body, level, col, 0), whitespace_before_if=newline,
                test=self.line(node.test, level, column + 3, 0), whitespace_before_else=newline,
                orelse=self.line(node.orelse, level, column + 5, tail))
        if isinstance(node, cst.Comparison):
            operands = [node.left, *(t.comparator for t in node.comparisons)]
            operators = [t.operator for t in node.comparisons]
        else:
            chain = _chain(node)
            if chain is None:
                return self._dots(node, newline)
            operands, operators = chain
        laid: dict[int, cst.BaseExpression] = {}
        for i, operand in enumerate(operands):
            start = col if i == 0 else self._column(level) + len(code(operators[i - 1].with_changes(whitespace_before=_NONE)))
            laid[id(operand)] = self.line(operand, level, start, tail if i == len(operands) - 1 else 0)
        if isinstance(node, cst.Comparison):
            return node.with_changes(left=laid[id(node.left)], comparisons=[
                t.with_changes(operator=t.operator.with_changes(whitespace_before=newline), comparator=laid[id(t.comparator)])
                for t in node.comparisons])

        def rebuilt(n: cst.BaseExpression) -> cst.BaseExpression:
            if id(n) in laid:
                return laid[id(n)]
            return n.with_changes(left=rebuilt(n.left), right=rebuilt(n.right),  # type: ignore[attr-defined]
                                  operator=n.operator.with_changes(whitespace_before=newline))  # type: ignore[attr-defined]

        return rebuilt(node)

    @staticmethod
    def _dots(node: cst.BaseExpression, newline: cst.ParenthesizedWhitespace) -> cst.BaseExpression | None:
        """A method chain broken before each call after the first (`d.shuffle(n)`, `.batch(32)`,
        `.repeat(3)`), when there are two or more; None otherwise."""
        dots = {id(d) for d in _call_dots(node)}
        if len(dots) < 2:
            return None

        def split(n: cst.BaseExpression) -> cst.BaseExpression:
            if isinstance(n, cst.Call):
                return n.with_changes(func=split(n.func))
            if isinstance(n, cst.Subscript) or (isinstance(n, cst.Attribute) and id(n) not in dots):
                return n.with_changes(value=split(n.value)) if not n.lpar else n
            if isinstance(n, cst.Attribute):
                return n.with_changes(value=split(n.value), dot=n.dot.with_changes(whitespace_before=newline))
            return n

        return split(node)


# ---- a function's parameters ----------------------------------------------------------------

def _parameters(params: cst.Parameters) -> list[cst.CSTNode]:
    """A `def`'s parameters in their order, the bare `*` and `/` among them."""
    return [*params.posonly_params,
            *([params.posonly_ind] if isinstance(params.posonly_ind, cst.ParamSlash) else []),
            *params.params,
            *([params.star_arg] if isinstance(params.star_arg, (cst.Param, cst.ParamStar)) else []),
            *params.kwonly_params, *([params.star_kwarg] if params.star_kwarg else [])]


def _with_parameters(params: cst.Parameters, elements: list[cst.CSTNode]) -> cst.Parameters:
    """`params` with its elements replaced by `elements`, in `_parameters`'s order."""
    it = iter(elements)
    take = lambda seq: [next(it) for _ in seq]
    changes: dict[str, object] = {"posonly_params": take(params.posonly_params)}
    if isinstance(params.posonly_ind, cst.ParamSlash):
        changes["posonly_ind"] = next(it)
    changes["params"] = take(params.params)
    if isinstance(params.star_arg, (cst.Param, cst.ParamStar)):
        changes["star_arg"] = next(it)
    changes["kwonly_params"] = take(params.kwonly_params)
    if params.star_kwarg:
        changes["star_kwarg"] = next(it)
    return params.with_changes(**changes)


def _opened_def(func: cst.FunctionDef, layout: _Layout) -> cst.FunctionDef:
    """A `def` with its parameters on a line of their own, else one per line with a trailing
    comma (black's left_hand_split; a sole parameter takes its comma too)."""
    elements = _parameters(func.params)
    inner, outer = _newline(_INDENT), _newline("")
    last = elements[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if len(elements) > 1 and isinstance(last, (cst.Param, cst.ParamSlash)):
        one_line = code(_with_parameters(func.params, [*elements[:-1], last]))
        if layout.base + len(_INDENT) + len(one_line) <= layout.limit:
            field = "whitespace_after_param" if isinstance(last, cst.Param) else "whitespace_after"
            hugged = _with_parameters(func.params, [*elements[:-1], last.with_changes(**{field: outer})])
            return func.with_changes(whitespace_before_params=inner, params=hugged)
    exploded = [e.with_changes(whitespace_after_param=_NONE) if isinstance(e, cst.Param) else e
                for e in _one_per_line(elements, 0)]
    return func.with_changes(whitespace_before_params=inner, params=_with_parameters(func.params, exploded))


# ---- a statement the user spread over lines, joined ---------------------------------------

#: Whitespace fields that hold none on one line: after a callee or an opening bracket, before a comma.
_TIGHT = frozenset({"whitespace_after_func", "whitespace_before_args", "whitespace_after_arg", "whitespace_after_star",
                    "whitespace_after_value", "whitespace_before_colon", "whitespace_before_value",
                    "whitespace_after_param", "whitespace_before_params"})
_TIGHT_NODES = (cst.LeftParen, cst.LeftSquareBracket, cst.LeftCurlyBrace, cst.RightParen, cst.RightSquareBracket,
                cst.RightCurlyBrace, cst.Dot, cst.AssignEqual)


class _Join(cst.CSTTransformer):
    """Each line break of a statement a space, or nothing next to a bracket, a dot or a comma."""

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        changes: dict[str, object] = {}
        for f in dataclasses.fields(updated):
            value = getattr(updated, f.name)
            if isinstance(value, cst.ParenthesizedWhitespace) or (
                    isinstance(value, cst.SimpleWhitespace) and "\\" in value.value):
                tight = f.name in _TIGHT or isinstance(updated, _TIGHT_NODES) or (
                    isinstance(updated, (cst.Comma, cst.Colon)) and f.name == "whitespace_before")
                changes[f.name] = _NONE if tight else cst.SimpleWhitespace(" ")
        for name in ("args", "elements", "slice"):  # no space between a trailing comma and its bracket
            seq = getattr(updated, name, None)
            if isinstance(seq, (list, tuple)) and seq and isinstance(getattr(seq[-1], "comma", None), cst.Comma):
                last = seq[-1].with_changes(comma=seq[-1].comma.with_changes(whitespace_after=_NONE))
                changes[name] = [*seq[:-1], last]
        return updated.with_changes(**changes) if changes else updated


def _joinable(text: str) -> bool:
    """Whether a statement's lines join without losing anything: no comment, no string with a
    line break."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    return not any(tok.type == tokenize.COMMENT or (tok.type not in (tokenize.NL, tokenize.NEWLINE) and "\n" in tok.string)
                   for tok in tokens)


# ---- the statements visited ----------------------------------------------------------------

class _Wrap(cst.CSTTransformer):
    def __init__(self, limit: int, module: cst.Module, made: set[str] | None) -> None:
        super().__init__()
        self.limit = limit
        self.module = module
        self.made = made  # the too-long lines the rewrite made, stripped; None: not known
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

    @property
    def _layout(self) -> _Layout:
        return _Layout(self.limit, len(self.module.default_indent) * self.depth)

    def _text(self, stmt: cst.BaseStatement) -> str:
        return self.module.code_for_node(stmt.with_changes(leading_lines=[]))

    def _fits(self, text: str) -> bool:
        indent = len(self.module.default_indent) * self.depth
        return all(indent + len(line) <= self.limit for line in text.splitlines())

    def _header(self, stmt: cst.With | cst.FunctionDef) -> str | None:
        """A compound statement's header line; None when it spans lines or has a comment."""
        if (not isinstance(stmt.body, cst.IndentedBlock) or stmt.body.header.comment is not None
                or isinstance(getattr(stmt, "lpar", None), cst.LeftParen)):
            return None
        stub = stmt.with_changes(body=cst.IndentedBlock(body=[]), leading_lines=[])
        if isinstance(stub, cst.FunctionDef):
            stub = stub.with_changes(decorators=[])
        lines = self.module.code_for_node(stub).split("\n")
        return lines[0] if len(lines) == 3 else None

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        text = self._text(updated)
        comment = updated.trailing_whitespace.comment
        if comment is not None:  # black wraps the code and leaves the comment after its last line
            text = self._text(updated.with_changes(trailing_whitespace=cst.TrailingWhitespace()))
        if self._fits(text) or len(updated.body) != 1:
            return updated
        if "\n" in text.rstrip("\n"):  # spread over lines: the user's layout, unless the rewrite made its long line
            if self.made is None or not any(line.strip() in self.made for line in text.splitlines()) \
                    or not _joinable(text):
                return updated
            updated = updated.visit(_Join())  # type: ignore[assignment]
            if self._fits(self._text(updated)):
                return updated
        small = updated.body[0]
        value = getattr(small, "value", None)
        if not isinstance(value, cst.BaseExpression):
            return updated
        layout = self._layout
        col = layout.base + len(code(small)) - len(code(value))
        head = code(small)[:len(code(small)) - len(code(value))]
        parenthesized = isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return))
        new = layout.statement(value, col, head if parenthesized else None)
        return updated.with_changes(body=[small.with_changes(value=new)])

    def leave_With(self, original: cst.With, updated: cst.With) -> cst.With:
        header = self._header(updated)
        if header is None or self._fits(header):
            return updated
        last = updated.items[-1]  # black opens the last item's bracket: `with f(\n    ...\n) as x:`
        tail = len(code(last)) - len(code(last.item)) + len(code(updated.whitespace_before_colon)) + 1
        layout = self._layout
        item = layout.opened(last.item, 0, layout.base + len(header) - tail - len(code(last.item)))
        return updated if item is None else updated.with_changes(items=[*updated.items[:-1], last.with_changes(item=item)])

    def leave_Decorator(self, original: cst.Decorator, updated: cst.Decorator) -> cst.Decorator:
        """A decorator laid out as a statement's value after its `@` (a step's long signature)."""
        if self._fits("@" + code(updated.decorator)) or updated.trailing_whitespace.comment is not None:
            return updated
        layout = self._layout
        return updated.with_changes(decorator=layout.statement(updated.decorator, layout.base + 1, None))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        header = self._header(updated)
        if header is None or self._fits(header) or not _parameters(updated.params):
            return updated
        return _opened_def(updated, self._layout)


def wrap_long_lines(module: cst.Module, limit: int, source: str | None = None) -> cst.Module:
    """The module with each statement longer than `limit` wrapped (the same object when none is).

    `source`, the text the module was rewritten from, tells the lines the rewrite made: a
    statement spread over lines is laid out anew only when one of those is too long (without
    `source`, never). Only the top-level statements holding a long line are visited: a visit
    renders each of its statements, and a big module has few long lines."""
    made = None
    if source is not None:
        kept = set(source.splitlines())
        made = {line.strip() for line in module.code.splitlines() if len(line) > limit and line not in kept}
    wrap = _Wrap(limit, module, made)
    body = [
        stmt if all(len(line) <= limit for line in module.code_for_node(stmt).splitlines()) else stmt.visit(wrap)
        for stmt in module.body
    ]
    if all(new is old for new, old in zip(body, module.body)):
        return module
    return module.with_changes(body=body)  # type: ignore[arg-type]
