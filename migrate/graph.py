"""The graph model of one scope: what each TF1 graph-building statement defines.

A scope's statements are classified in order into nodes (placeholders, variables, optimizers,
train ops, gradient nodes, tensors, sessions, initializers) with the nodes they read, so the
program move can take the backward slice of any fetch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import libcst as cst

from .api_table import builds_graph
from .imports import Aliases
from .walk import children, walk

# Kinds computed inside the generated step functions (re-run on every call). The others are
# created once outside them (variable, optimizer, varlist, schedule, object, saver) or dropped
# (placeholder, session, init, collection).
INSIDE = frozenset({"tensor", "train", "gradients", "compute_gradients"})


@dataclass(eq=False)
class Node:
    """One binding made by a graph-building statement."""

    names: tuple[str, ...]
    kind: str
    stmt: cst.SimpleStatementLine
    value: cst.BaseExpression
    index: int  # order of definition in the scope
    deps: list[Node] = field(default_factory=list)
    trainable: bool = True
    info: dict[str, object] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.names[0]


T = TypeVar("T")

# CST nodes are immutable, so walks over the same node are memoised (per rewritten file).
_WALKS: dict[tuple[str, int], tuple[cst.CSTNode, Any]] = {}


def clear_walk_cache() -> None:
    _WALKS.clear()


def memoised_walk(kind: str, node: cst.CSTNode, walk: Callable[[Any], T]) -> T:
    key = (kind, id(node))
    hit = _WALKS.get(key)
    if hit is None or hit[0] is not node:
        hit = (node, walk(node))
        _WALKS[key] = hit
    return hit[1]


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call under ``node`` (itself included), in visiting order."""
    return memoised_walk("calls", node, _calls_in)


def _calls_in(node: cst.CSTNode) -> list[cst.Call]:
    # `type() is`: these node classes have no subclasses, and isinstance on CSTNode's ABC
    # metaclass costs several times more in walks over every node.
    return [n for n in walk(node) if type(n) is cst.Call]


def calls_by_callee(node: cst.CSTNode) -> dict[str, list[cst.Call]]:
    """The calls under ``node`` by what they call: ``f(...)`` under "f", ``x.f(...)`` under
    ".f". Questions asked once per class or function look their calls up here, so a module's
    cost stays linear in its size."""
    return memoised_walk("callees", node, _calls_by_callee)


def _calls_by_callee(node: cst.CSTNode) -> dict[str, list[cst.Call]]:
    index: dict[str, list[cst.Call]] = {}
    for call in calls_in(node):
        func = call.func
        if type(func) is cst.Name:
            index.setdefault(func.value, []).append(call)  # type: ignore[attr-defined]
        elif type(func) is cst.Attribute:
            index.setdefault("." + func.attr.value, []).append(call)  # type: ignore[attr-defined]
    return index


def top_level_defs(module: cst.Module) -> dict[str, cst.FunctionDef]:
    """The module's top-level functions by name (the first def of a name)."""
    defs: dict[str, cst.FunctionDef] = {}
    for stmt in module.body:
        if type(stmt) is cst.FunctionDef:
            defs.setdefault(stmt.name.value, stmt)  # type: ignore[attr-defined]
    return defs


def name_uses(node: cst.CSTNode) -> dict[str, list[cst.Name]]:
    """Every ``Name`` under ``node`` (definitions, reads, members) by its text."""
    return memoised_walk("name uses", node, _name_uses)


def _name_uses(node: cst.CSTNode) -> dict[str, list[cst.Name]]:
    index: dict[str, list[cst.Name]] = {}
    for n in walk(node):
        if type(n) is cst.Name:
            index.setdefault(n.value, []).append(n)  # type: ignore[attr-defined]
    return index


def names_read(node: cst.CSTNode) -> list[cst.Name]:
    """Every `Name` read in an expression: not attribute members, keywords or lambda params."""
    return memoised_walk("names", node, _names_read)


def _names_read(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []
    for n in walk(node, _read_children):
        if type(n) is cst.Name:
            found.append(n)
        elif type(n) is cst.Lambda:  # a lambda's globals are reads; its parameters are not
            params = {p.name.value for p in n.params.params}
            found.extend(m for m in _names_read(n.body) if m.value not in params)
    return found


def _read_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Attribute members and keywords are not reads; a lambda's body is read on its own;
    `global x` declares a name and reads nothing."""
    cls = type(node)
    if cls is cst.Attribute or cls is cst.Arg:
        return [node.value]  # type: ignore[attr-defined]
    return [] if cls is cst.Lambda or cls is cst.Global or cls is cst.Nonlocal else children(node)


def call_args(call: cst.Call, positional: tuple[str, ...]) -> dict[str, cst.BaseExpression]:
    """Bind a call's arguments to parameter names (positional order given)."""
    bound: dict[str, cst.BaseExpression] = {}
    position = 0
    for arg in call.args:
        if arg.star:
            continue
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
        elif position < len(positional):
            bound[positional[position]] = arg.value
            position += 1
    return bound


def refers_to_tf(expr: cst.CSTNode, aliases: Aliases) -> bool:
    """True if a name chain in `expr` resolves to a TensorFlow API that builds graph nodes."""

    def inside(node: cst.CSTNode) -> list[cst.CSTNode]:
        resolved = isinstance(node, cst.Attribute) and aliases.resolve(node) is not None
        return [] if resolved else children(node)  # a resolved chain is judged whole

    for node in walk(expr, inside):
        if isinstance(node, (cst.Attribute, cst.Name)):
            path = aliases.resolve(node)
            if path and builds_graph(path):
                return True
    return False


def valueless(node: Node) -> bool:
    """Fetches ``sess.run`` answers with None: train ops, ``tf.group``, ``tf.no_op``."""
    return node.kind == "train" or bool(node.info.get("valueless"))


@dataclass
class Scope:
    """The graph model of a scope: its nodes and the current binding of each name."""

    nodes: list[Node] = field(default_factory=list)
    current: dict[str, Node] = field(default_factory=dict)
    sessions: set[str] = field(default_factory=set)
    # module-level functions -> the names they read (their graph inputs through globals)
    functions: dict[str, list[str]] = field(default_factory=dict)
    statements: set[int] = field(default_factory=set)  # ids of the statements nodes came from
    inside_statements: set[int] = field(default_factory=set)  # ... of INSIDE nodes

    def add(self, node: Node) -> None:
        self.nodes.append(node)
        self.statements.add(id(node.stmt))
        if node.kind in INSIDE:
            self.inside_statements.add(id(node.stmt))
        for name in node.names:
            self.current[name] = node

    def lookup(self, name: str) -> Node | None:
        return self.current.get(name)

    def deps_of(self, expr: cst.CSTNode) -> list[Node]:
        """Nodes an expression reads, including through the globals of functions it calls."""
        seen: list[Node] = []
        names = [n.value for n in names_read(expr)]
        visited: set[str] = set()
        while names:
            name = names.pop()
            if name in visited:
                continue
            visited.add(name)
            node = self.current.get(name)
            if node is not None and node not in seen:
                seen.append(node)
            names.extend(self.functions.get(name, ()))
        return seen


def backward_slice(roots: list[Node]) -> tuple[list[Node], list[Node], list[Node]]:
    """Inside nodes reached from `roots`, the placeholders they read and the outside nodes."""
    inside: list[Node] = []
    placeholders: list[Node] = []
    outside: list[Node] = []
    stack = list(roots)
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.kind == "placeholder":
            placeholders.append(node)
            if "iterator" in node.info:
                continue  # a batch pulled from an iterator: what made the iterator is not an input
        elif node.kind in INSIDE and not node.info.get("eager"):
            inside.append(node)
        else:  # persistent objects, and tensors computed eagerly where they stand
            outside.append(node)
        stack.extend(node.deps)

    def order(nodes: list[Node]) -> list[Node]:
        return sorted(nodes, key=lambda n: n.index)

    return order(inside), order(placeholders), order(outside)
