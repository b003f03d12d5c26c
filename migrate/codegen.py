"""Source layout helpers for generated code: blank lines, comments, result conversion."""

from __future__ import annotations

import libcst as cst

from .walk import children

_EMPTY = cst.Module([])


def code(node: cst.CSTNode) -> str:
    """The node's source; a plain dotted name (the commonest case by far) without codegen."""
    parts: list[str] = []
    cur = node
    while isinstance(cur, cst.Attribute) and _bare(cur) and _bare(cur.attr) and _tight(cur.dot):
        parts.append(cur.attr.value)
        cur = cur.value
    if isinstance(cur, cst.Name) and _bare(cur):
        return ".".join([cur.value, *reversed(parts)])
    return _EMPTY.code_for_node(node)


def _bare(node: cst.Name | cst.Attribute) -> bool:
    return not (node.lpar or node.rpar)


def _tight(dot: cst.Dot) -> bool:
    before, after = dot.whitespace_before, dot.whitespace_after
    return (
        isinstance(before, cst.SimpleWhitespace)
        and not before.value
        and isinstance(after, cst.SimpleWhitespace)
        and not after.value
    )


def blank_run(lines: list[cst.EmptyLine]) -> int:
    longest = run = 0
    for line in lines:
        run = run + 1 if line.comment is None else 0
        longest = max(longest, run)
    return longest


def merge_leading(dropped: list[cst.EmptyLine], own: list[cst.EmptyLine]) -> list[cst.EmptyLine]:
    """Leading lines of dropped statements joined to the next one, no wider gaps than before."""
    limit = max(blank_run(dropped), blank_run(own))
    out: list[cst.EmptyLine] = []
    run = 0
    for line in dropped + own:
        run = run + 1 if line.comment is None else 0
        if run <= limit:
            out.append(line)
    return out


def blank(n: int) -> list[cst.EmptyLine]:
    return [cst.EmptyLine(indent=False) for _ in range(n)]


def comments(lines: tuple[cst.EmptyLine, ...] | list[cst.EmptyLine]) -> list[cst.EmptyLine]:
    return [line for line in lines if line.comment is not None]


def unwrapped(stmt: cst.With) -> list[cst.BaseStatement]:
    """The statements of a `with` block that the rewrite removes, with every comment of the
    block kept: the `with` line's leading lines and trailing comment go above the first, the
    block's closing comments above the last."""
    block = stmt.body
    inner = list(block.body) if isinstance(block, cst.IndentedBlock) else []
    if not inner:
        return inner
    header = [cst.EmptyLine(comment=block.header.comment)] if block.header.comment is not None else []
    inner[0] = inner[0].with_changes(leading_lines=[*stmt.leading_lines, *header, *inner[0].leading_lines])
    return with_closing_comments(inner, comments(block.footer))  # type: ignore[union-attr]


def with_closing_comments(stmts: list[cst.BaseStatement], lines: list[cst.EmptyLine]) -> list[cst.BaseStatement]:
    """Comments whose statements are gone from the end of a block, kept above its last one."""
    if not lines or not stmts:
        return stmts
    return [*stmts[:-1], stmts[-1].with_changes(leading_lines=[*stmts[-1].leading_lines, *lines])]


def inner_comments(stmt: cst.BaseStatement) -> list[cst.EmptyLine]:
    """Every comment of a statement but those of its leading lines, as comment lines in source
    order: what a rewrite that drops the statement must keep (`x = tf.placeholder(...)  # why`)."""
    leading = {id(line.comment) for line in stmt.leading_lines if line.comment is not None}
    found: list[cst.Comment] = []
    stack: list[cst.CSTNode] = [stmt]
    while stack:  # every child, whitespace included: comments live in the trivia
        node = stack.pop()
        if isinstance(node, cst.Comment) and id(node) not in leading:
            found.append(node)
        stack.extend(reversed(node.children))
    return [cst.EmptyLine(comment=c) for c in found]


def strip_leading_blank(stmts: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """A block's first statement starts right after the block header, and statements moved in
    from module level are one blank line apart at most (PEP 8 inside a function)."""
    if not stmts:
        return stmts
    first = stmts[0]
    lines = list(first.leading_lines)
    while lines and lines[0].comment is None:
        lines.pop(0)
    rest = [s if blank_run(s.leading_lines) <= 1 else s.with_changes(leading_lines=_one_blank(s.leading_lines))
            for s in stmts[1:]]
    return [first.with_changes(leading_lines=lines), *rest]


def _one_blank(lines: tuple[cst.EmptyLine, ...] | list[cst.EmptyLine]) -> list[cst.EmptyLine]:
    out: list[cst.EmptyLine] = []
    for line in lines:
        if line.comment is None and out and out[-1].comment is None:
            continue
        out.append(line)
    return out


def is_pass(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Pass)


def is_docstring(stmt: cst.BaseStatement) -> bool:
    """A line that is only a string literal (what Python takes as a docstring when first)."""
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def leaves(fetch: cst.BaseExpression) -> list[str] | None:
    """Names of a fetch that is a name or a flat list/tuple of names; None otherwise."""
    if isinstance(fetch, cst.Name):
        return [fetch.value]
    if isinstance(fetch, (cst.List, cst.Tuple)) and all(
        isinstance(e.value, cst.Name) for e in fetch.elements
    ):
        return [e.value.value for e in fetch.elements]  # type: ignore[attr-defined]
    return None


def numpy_structure(fetch: cst.BaseExpression) -> str:
    names = leaves(fetch) or []
    if isinstance(fetch, cst.Name):
        return f"{fetch.value}.numpy()"
    inner = ", ".join(f"{leaf}.numpy()" for leaf in names)
    return (
        f"[{inner}]"
        if isinstance(fetch, cst.List)
        else f"({inner}{',' if len(names) == 1 else ''})"
    )


def convert_result(call: str, structure: str) -> str:
    """Source that turns a step function's tensors into what sess.run returned."""
    return {
        "single": f"{call}.numpy()",
        "list": f"[t.numpy() for t in {call}]",
        "dict": f"{{k: t.numpy() for k, t in {call}.items()}}",
        "nested": f"tf.nest.map_structure(lambda t: t.numpy(), {call})",
        # a train op's place in a fetched structure: sess.run gave None there
        "nested_with_none": f"tf.nest.map_structure(lambda t: None if t is None else t.numpy(), {call})",
    }[structure]


#: Nodes whose line is recorded by id during the current rewrite. Lines are keyed by node id,
#: and a node that died would hand its id to a node made later, which would then report at a
#: line not its own: so each recorded node lives until the rewrite ends (`forget_lines`).
_RECORDED: list[cst.CSTNode] = []


def record_line(lines: dict[int, int], node: cst.CSTNode, line: int) -> None:
    """``lines[id(node)] = line``, with ``node`` kept alive so its id stays its own."""
    lines[id(node)] = line
    _RECORDED.append(node)


def forget_lines() -> None:
    """Let the nodes of the last rewrite go (called as a rewrite starts)."""
    _RECORDED.clear()


class LineKeeping(cst.CSTTransformer):
    """A transformer whose rebuilt nodes report at the line of the node each replaces
    (``self.lines``, the rewrite's line map, set by the subclass)."""

    lines: dict[int, int]

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[override]
        result = super().on_leave(original_node, updated_node)
        if isinstance(result, cst.CSTNode) and result is not original_node and id(original_node) in self.lines:
            record_line(self.lines, result, self.lines[id(original_node)])
        return result


def copy_lines(old: cst.CSTNode, new: cst.CSTNode, lines: dict[int, int]) -> None:
    """Give a rebuilt tree the source lines of the tree it replaces, node by node; children
    the rebuild added (an argument appended to a call) take their parent's line."""
    if old is new:  # a subtree the rebuild kept as it was has its lines
        return
    line = lines.get(id(old))
    if line is not None:
        record_line(lines, new, line)
    old_children, new_children = children(old), children(new)
    for old_child, new_child in zip(old_children, new_children):
        copy_lines(old_child, new_child, lines)
    if line is not None:
        for added in new_children[len(old_children) :]:
            fill_lines(added, line, lines)


def fill_lines(node: cst.CSTNode, line: int, lines: dict[int, int]) -> None:
    """Generated code reports at ``line``: every node under ``node`` without a line gets it."""
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) not in lines:
            record_line(lines, current, line)
        stack.extend(children(current))


# Arguments that need no parentheses where a parameter was an operand.
ATOMS = (
    cst.Name,
    cst.Integer,
    cst.Float,
    cst.SimpleString,
    cst.Call,
    cst.Attribute,
    cst.Subscript,
    cst.List,
    cst.Tuple,
    cst.Dict,
)


#: Expressions whose value may be dropped unread: reading them has no effect.
_PURE = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString)


class ReplaceNames(cst.CSTTransformer):
    """Replace reads of some names by expressions (e.g. `weight` → `self.weight`)."""

    def __init__(self, mapping: dict[str, str]) -> None:
        super().__init__()
        self.mapping = mapping

    def leave_Attribute(
        self, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        """`shape[0]` of a name replaced by a list or tuple literal: the element itself
        (`[INPUT, HIDDEN][0]` reads as `INPUT`) when every element is a name or a literal."""
        value = updated.value
        if not (isinstance(original.value, cst.Name) and original.value.value in self.mapping
                and isinstance(value, (cst.List, cst.Tuple)) and not value.lpar and len(updated.slice) == 1):
            return updated
        index = updated.slice[0].slice
        elements = value.elements
        if not (isinstance(index, cst.Index) and isinstance(index.value, cst.Integer)
                and all(isinstance(e, cst.Element) and isinstance(e.value, _PURE) for e in elements)):
            return updated
        at = int(index.value.value)
        if at >= len(elements) or updated.lpar:
            return updated
        return elements[at].value.with_changes(lpar=[], rpar=[])

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if original.value not in self.mapping:
            return updated
        replacement = cst.parse_expression(self.mapping[original.value])
        if updated.lpar:  # the name's own parentheses stay
            replacement = replacement.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        return replacement
