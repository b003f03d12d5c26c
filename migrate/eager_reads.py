"""Graph objects a TF1 program reads outside a session run, found in one driver statement.

TF1 code may print a tensor or list the graph's variables between building the graph and
running it. In TF2 these are eager values: a tensor is computed by calling a step function,
a variable list is read from the objects that own the variables. This module finds such reads;
the program move (program.py) decides whether they can be computed and rewrites them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .graph import INSIDE, Scope, names_read
from .imports import Aliases
from .rules.eager_reads import VARIABLE_LISTS
from .walk import children

# Tensor attributes with no eager counterpart: a tensor read through them stays unmodelled.
GRAPH_ONLY_ATTRIBUTES = frozenset(
    {"name", "op", "graph", "eval", "consumers", "device", "value_index"}
)
# Calls that show what they are given: what a read prints changes in TF2.
SHOWING_CALLS = frozenset({"print", "str", "repr", "format"})
# Calls a printed read may pass through: what they print is the same in TF1 and TF2.
SIZE_CALLS = frozenset({"len"})
COLLECTION_KEYS = {
    "GraphKeys.GLOBAL_VARIABLES": "variables",
    "GraphKeys.TRAINABLE_VARIABLES": "trainable_variables",
}


@dataclass
class Reads:
    """The graph reads of one statement, by the id of the CST node read."""

    tensors: dict[int, cst.Name] = field(default_factory=dict)  # inside nodes printed
    # variable-list call -> (Keras attribute, whether only printed or counted: the variables'
    # names are not used, so Keras variables can stand for TF1's)
    lists: dict[int, tuple[str, bool]] = field(default_factory=dict)
    # variable-list call -> the `v.name` reads of a comprehension over it (`[v.name for v in
    # tf.trainable_variables()]`): a Keras variable's scoped name is its `path`
    names: dict[int, list[cst.Attribute]] = field(default_factory=dict)
    shown: list[tuple[cst.CSTNode, str]] = field(default_factory=list)  # (read, what) printed

    @property
    def rewrites(self) -> bool:
        return bool(self.tensors or self.lists)


def variable_list(call: cst.Call, aliases: Aliases) -> str | None:
    """The Keras attribute (`variables`, `trainable_variables`) a TF1 variable-list call maps to."""
    path = aliases.resolve(call.func) or ""
    if path in VARIABLE_LISTS and not call.args:
        return VARIABLE_LISTS[path]
    if path == "get_collection" and len(call.args) == 1:
        return COLLECTION_KEYS.get(aliases.resolve(call.args[0].value) or "")
    return None


def find_reads(
    stmt: cst.CSTNode, scope: Scope, aliases: Aliases, allowed: set[int], bound: set[int]
) -> Reads:
    """Tensors printed (names not in `allowed`), variable lists, and printed variables.

    A tensor read any other way, or in a statement binding a graph name (`y = y * 2` in a
    loop builds more graph), is not a read of a value: it stays for the program move to
    reject."""
    reads = Reads()
    read_ids = {id(n) for n in names_read(stmt)} - allowed
    rebinds = any(scope.lookup(n.value) is not None for n in names_read(stmt) if id(n) in bound)
    stack: list[cst.CSTNode] = []

    def enter(node: cst.CSTNode) -> bool:
        """Record what ``node`` reads; False: its children are no reads of their own."""
        if isinstance(node, cst.Call) and (attr := variable_list(node, aliases)) is not None:
            counted = _argument_of(stack, SIZE_CALLS)
            reads.lists[id(node)] = (attr, counted or _argument_of(stack, SHOWING_CALLS))
            named = _name_reads(stack)
            if named is not None:
                reads.names[id(node)] = named
            if not counted:
                reads.shown.append((node, "variables"))
            return False
        if isinstance(node, cst.Name) and id(node) in read_ids:
            found = scope.lookup(node.value)
            parent = stack[-2] if len(stack) > 1 else None
            graph_only = (
                isinstance(parent, cst.Attribute)
                and parent.value is node
                and parent.attr.value in GRAPH_ONLY_ATTRIBUTES
            )
            if (
                found is not None
                and found.kind in INSIDE
                and not graph_only
                and not rebinds
                and _shown(stack)
            ):
                reads.tensors[id(node)] = node
                if _argument_of(stack, SHOWING_CALLS):
                    reads.shown.append((node, "tensor"))
            elif (
                found is not None
                and found.kind == "variable"
                and _argument_of(stack, SHOWING_CALLS)
            ):
                reads.shown.append((node, "variable"))
        return True

    def visit(node: cst.CSTNode) -> None:
        stack.append(node)
        if enter(node):
            for child in children(node):
                visit(child)
        stack.pop()

    visit(stmt)
    return reads


def _name_reads(stack: list[cst.CSTNode]) -> list[cst.Attribute] | None:
    """The `v.name` reads of a comprehension iterating over the node on top of the stack,
    when that is all the comprehension reads of `v`; None otherwise."""
    if len(stack) < 3 or not isinstance(stack[-2], cst.CompFor) or stack[-2].iter is not stack[-1]:
        return None
    comp, loop = stack[-3], stack[-2]
    if not (
        isinstance(comp, (cst.ListComp, cst.GeneratorExp, cst.SetComp))
        and isinstance(loop.target, cst.Name)
        and loop.inner_for_in is None
    ):
        return None
    target = loop.target.value
    reads: list[cst.Attribute] = []
    plain: list[cst.Name] = []

    def uses(node: cst.CSTNode) -> None:
        if (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value == target
            and node.attr.value == "name"
        ):
            reads.append(node)
            return
        if isinstance(node, cst.Name) and node.value == target:
            plain.append(node)
        for child in children(node):
            uses(child)

    for part in (comp.elt, *(i.test for i in loop.ifs)):
        uses(part)
    return reads if reads and not plain else None


def _shown(stack: list[cst.CSTNode]) -> bool:
    """Is the node on top of the stack printed: inside a print/str call or an f-string?"""
    for parent in reversed(stack[:-1]):
        if isinstance(parent, cst.FormattedString):
            return True
        if isinstance(parent, cst.Call) and _call_name(parent) not in SIZE_CALLS:
            return _call_name(parent) in SHOWING_CALLS
    return False


def _argument_of(stack: list[cst.CSTNode], calls: frozenset[str]) -> bool:
    """Is the node on top of the stack itself an argument of one of `calls` (or an f-string)?"""
    parent = stack[-2] if len(stack) > 1 else None
    grandparent = stack[-3] if len(stack) > 2 else None
    if isinstance(parent, cst.FormattedStringExpression):
        return "print" in calls
    return (
        isinstance(parent, cst.Arg)
        and isinstance(grandparent, cst.Call)
        and _call_name(grandparent) in calls
    )


def _call_name(call: cst.Call) -> str:
    func = call.func
    return (
        func.value
        if isinstance(func, cst.Name)
        else func.attr.value
        if isinstance(func, cst.Attribute)
        else ""
    )
