"""Graph objects a TF1 program reads outside a session run, found in one driver statement.

TF1 code may print a tensor or list the graph's variables between building the graph and
running it. In TF2 these are eager values: a tensor is computed by calling a step function,
a variable list is read from the objects that own the variables. This module finds such reads;
the program move (move/eager_values.py) decides whether they can be computed and rewrites them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from .graph import INSIDE, Scope, names_read
from .imports import Aliases
from .rules.eager_reads import VARIABLE_LISTS
from .walk import children, walk

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
    # variable-list call -> the shape reads of a comprehension over it (`v.get_shape().as_list()`)
    shapes: dict[int, list[cst.CSTNode]] = field(default_factory=dict)
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
        if isinstance(node, cst.Call) and (attr := variable_list(node, aliases)) is not None:
            shapes = shape_reads(stack)
            if shapes is not None:
                reads.shapes[id(node)] = shapes
            counted = _argument_of(stack, SIZE_CALLS) or shapes is not None
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

    def name_read(node: cst.Attribute, target: str) -> cst.CSTNode | None:
        ok = (
            isinstance(node.value, cst.Name)
            and node.value.value == target
            and node.attr.value == "name"
        )
        return node if ok else None

    return _member_reads(stack, name_read)  # type: ignore[return-value]


def shape_reads(stack: list[cst.CSTNode]) -> list[cst.CSTNode] | None:
    """The shape reads (`v.get_shape().as_list()`, `v.shape`) of a comprehension iterating over
    the node on top of the stack, when that is all it reads of `v` (counting parameters): the
    variables' names are not used. The outermost node of each read is listed."""

    def shape_read(node: cst.Attribute, target: str) -> cst.CSTNode | None:
        if not (
            isinstance(node.value, cst.Name)
            and node.value.value == target
            and node.attr.value in ("shape", "get_shape")
        ):
            return None
        outer: cst.CSTNode = node
        if node.attr.value == "get_shape":
            outer = parents.get(id(node), node)
            if not (isinstance(outer, cst.Call) and outer.func is node and not outer.args):
                return None
        # `.as_list()` on it: a Keras variable's shape is a tuple
        member = parents.get(id(outer))
        call = parents.get(id(member)) if member is not None else None
        if (
            isinstance(member, cst.Attribute)
            and member.value is outer
            and member.attr.value == "as_list"
            and isinstance(call, cst.Call)
            and call.func is member
            and not call.args
        ):
            return call
        return outer

    parents = (
        {id(child): node for node in walk(stack[-3]) for child in children(node)}
        if len(stack) >= 3
        else {}
    )
    return _member_reads(stack, shape_read)


def _member_reads(
    stack: list[cst.CSTNode], match: Callable[[cst.Attribute, str], cst.CSTNode | None]
) -> list[cst.CSTNode] | None:
    """The reads `match` finds of the target of a comprehension iterating over the node on top
    of the stack, when they are all the comprehension reads of it; None otherwise."""
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
    reads: list[cst.CSTNode] = []
    plain: list[cst.Name] = []

    class Uses(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            found = match(node, target)
            if found is not None:
                reads.append(found)
                return False
            return True

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == target:
                plain.append(node)

    for part in (comp.elt, *(i.test for i in loop.ifs)):  # type: ignore[attr-defined]
        part.visit(Uses())
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


def keras_shape(read: cst.CSTNode) -> cst.BaseExpression:
    """A shape read of `shape_reads` for a Keras variable, whose `shape` is a tuple and which
    has no `get_shape()`: `v.get_shape().as_list()` → `list(v.shape)`, `v.get_shape()` → `v.shape`."""
    listed = (
        isinstance(read, cst.Call)
        and isinstance(read.func, cst.Attribute)
        and read.func.attr.value == "as_list"
    )
    inner = read.func.value if listed else read  # type: ignore[attr-defined]
    if isinstance(inner, cst.Call):  # `v.get_shape()`
        inner = inner.func.value  # type: ignore[attr-defined]
    else:
        inner = inner.value  # type: ignore[attr-defined]
    source = f"{cst.Module([]).code_for_node(inner)}.shape"
    return cst.parse_expression(f"list({source})" if listed else source)
