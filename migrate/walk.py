"""Read-only walks over libcst trees, several times cheaper than a `CSTVisitor`.

libcst rebuilds every node a visitor passes, even a read-only `CSTVisitor`, which costs
about as much as parsing; most of the rewriter's walks only look. These walks follow the
order libcst's own visitors take (read once per node class from its
`_visit_and_replace_children`), so any list they collect is the list a visitor would,
and they skip the nodes that can hold no code: whitespace, comments, brackets, commas
and operators.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import typing
from collections.abc import Callable, Iterator

import libcst as cst

#: Nodes made of whitespace and punctuation only: no name, call or statement inside.
_TRIVIA_MODULES = ("libcst._nodes.whitespace", "libcst._nodes.op")
_TRIVIA_CLASSES = frozenset({
    cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
    cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.Asynchronous,
})

_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _visit_order(cls: type) -> tuple[str, ...] | None:
    """Fields in the order libcst visits them; None when its source cannot be read."""
    try:
        source = textwrap.dedent(inspect.getsource(cls._visit_and_replace_children))  # type: ignore[attr-defined]
    except (OSError, TypeError):
        return None
    calls = [
        node for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id.startswith("visit_") and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
    ]
    calls.sort(key=lambda node: (node.lineno, node.col_offset))
    return tuple(dict.fromkeys(str(node.args[1].value) for node in calls))  # type: ignore[attr-defined]


def _code_fields(cls: type) -> tuple[str, ...] | None:
    """The visited fields whose declared type admits a node that can hold code."""
    order = _visit_order(cls)
    if order is None:
        return None
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable annotation: walk every field
        return order
    return tuple(name for name in order if name not in hints or _may_hold_code(hints[name]))


def _may_hold_code(hint: object) -> bool:
    args = typing.get_args(hint)
    if args:
        return any(_may_hold_code(arg) for arg in args)
    if not isinstance(hint, type):
        return True  # a forward reference or Any: assume the worst
    if not issubclass(hint, cst.CSTNode):
        return False
    return any(not _is_trivia(cls) for cls in (hint, *_subclasses(hint)))


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


_TRIVIA: dict[type, bool] = {}
#: Per class of field value: a node that can hold code, a sequence, or neither. Asked of
#: every field of every node, so looked up by type (CSTNode is an ABC: isinstance is slow).
_CODE, _SEQUENCE, _OTHER = 1, 2, 3  # all true: `_KIND.get(t) or _kind(t)`
_KIND: dict[type, int] = {tuple: _SEQUENCE, list: _SEQUENCE}


def _is_trivia(cls: type) -> bool:
    hit = _TRIVIA.get(cls)
    if hit is None:
        hit = _TRIVIA[cls] = cls.__module__ in _TRIVIA_MODULES or cls in _TRIVIA_CLASSES
    return hit


def _kind(cls: type) -> int:
    kind = _KIND.get(cls)
    if kind is None:
        kind = _KIND[cls] = _CODE if issubclass(cls, cst.CSTNode) and not _is_trivia(cls) else _OTHER
    return kind


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's children that can hold code, in libcst's visiting order."""
    cls = type(node)
    if cls not in _FIELDS:
        _FIELDS[cls] = _code_fields(cls)
    fields = _FIELDS[cls]
    if fields is None:
        return [child for child in node.children if not _is_trivia(type(child))]
    out: list[cst.CSTNode] = []
    for name in fields:
        value = getattr(node, name)
        kind = _KIND.get(type(value)) or _kind(type(value))
        if kind == _CODE:
            out.append(value)
        elif kind == _SEQUENCE:
            out.extend([v for v in value if (_KIND.get(type(v)) or _kind(type(v))) == _CODE])
    return out


#: The pre-order of the tree being rewritten, and each of its nodes' span in it: a walk of
#: one of its subtrees is then a list slice instead of a visit per node.
_ORDER: list[cst.CSTNode] = []
_SPANS: dict[int, tuple[cst.CSTNode, int, int]] = {}


def index_tree(root: cst.CSTNode | None) -> None:
    """Record ``root``'s pre-order for later walks (None forgets it). Trees are immutable,
    so a node found here by id, and still the same object, has the subtree recorded."""
    order: list[cst.CSTNode] = []
    spans: dict[int, tuple[cst.CSTNode, int, int]] = {}
    stack: list[object] = [root] if root is not None else []
    while stack:
        item = stack.pop()
        if item.__class__ is tuple:  # all of a node's subtree is listed: its span ends here
            node, start = item  # type: ignore[misc]
            spans[id(node)] = (node, start, len(order))
            continue
        stack.append((item, len(order)))
        order.append(item)  # type: ignore[arg-type]
        stack.extend(reversed(children(item)))  # type: ignore[arg-type]
    _ORDER[:] = order
    _SPANS.clear()
    _SPANS.update(spans)


def walk(
    node: cst.CSTNode, inside: Callable[[cst.CSTNode], list[cst.CSTNode]] = children,
) -> Iterator[cst.CSTNode]:
    """Every code node under ``node`` (itself first), in the order a visitor meets them.

    ``inside(n)`` picks the children walked into, as a visitor's ``visit_*`` would
    (returning False, or visiting only some children itself); all of them by default.
    """
    if inside is children:
        span = _SPANS.get(id(node))
        if span is not None and span[0] is node:
            return iter(_ORDER[span[1]:span[2]])
        return _walk_all(node)
    return _walk(node, inside)


def _walk(node: cst.CSTNode, inside: Callable[[cst.CSTNode], list[cst.CSTNode]]) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(inside(current)))


def _walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """A walk of a tree built during the rewrite: the subtrees it kept from the indexed one
    come out as slices."""
    stack = [node]
    while stack:
        current = stack.pop()
        span = _SPANS.get(id(current))
        if span is not None and span[0] is current:
            yield from _ORDER[span[1]:span[2]]
        else:
            yield current
            stack.extend(reversed(children(current)))


def holding(node: cst.CSTNode, hit: Callable[[cst.CSTNode], bool]) -> set[int]:
    """Ids of the nodes under ``node`` with a ``hit`` node in their subtree (itself included)."""
    found: set[int] = set()

    def mark(current: cst.CSTNode) -> bool:
        held = hit(current)
        for child in children(current):
            held = mark(child) or held
        if held:
            found.add(id(current))
        return held

    mark(node)
    return found


def transform(
    node: cst.CSTNode, transformer: cst.CSTTransformer,
) -> cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel:
    """``node.visit(transformer)``, rebuilding only the nodes a change sits under.

    libcst constructs every node it visits again, changed or not, which costs about as much
    as parsing. This calls the same hooks in the same order (``on_visit``, then the code
    children, then ``on_leave`` with the original node and its updated form) but hands a
    node back as it was when its children all came back as they were. A ``leave_*`` may
    remove an item of a sequence or flatten several in its place, as with libcst; a node in
    any other field must stay a node. It serves transformers with no hooks on whitespace or
    punctuation nodes and no per-attribute hooks: those are not called.
    """
    if not transformer.on_visit(node):
        return transformer.on_leave(node, node)
    cls = type(node)
    if cls not in _FIELDS:
        _FIELDS[cls] = _code_fields(cls)
    fields = _FIELDS[cls]
    if fields is None:  # no visiting order known: libcst's own, with its rebuild
        return transformer.on_leave(node, node._visit_and_replace_children(transformer))
    changes: dict[str, object] = {}
    for name in fields:
        value = getattr(node, name)
        kind = _KIND.get(type(value)) or _kind(type(value))
        if kind == _CODE:
            new = transform(value, transformer)
            if new is not value:
                if not isinstance(new, cst.CSTNode):
                    raise TypeError(f"{type(transformer).__name__} removed the {name} of a "
                                    f"{cls.__name__}; walk.transform removes only items of sequences")
                changes[name] = new
        elif kind == _SEQUENCE:
            items: list[object] = []
            changed = False
            for item in value:
                if (_KIND.get(type(item)) or _kind(type(item))) != _CODE:
                    items.append(item)
                    continue
                new = transform(item, transformer)
                if new is item:
                    items.append(item)
                    continue
                changed = True
                if isinstance(new, cst.FlattenSentinel):
                    items.extend(new.nodes)
                elif isinstance(new, cst.CSTNode):
                    items.append(new)
            if changed:
                changes[name] = tuple(items)
    return transformer.on_leave(node, node.with_changes(**changes) if changes else node)
