"""Classes that build a graph in `__init__` (`self.x = tf.placeholder(...)`) and run it in methods.

The class is rewritten with the same program move as a module: `self.<attr>` is read as a name
of the `__init__` scope, the methods are the driver code. Step functions become nested
`tf.function`s of `__init__` (closures over `self`), stored as `self.<fetch>`; persistent
objects stay attributes; tensors become locals of the steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .codegen import copy_lines, is_docstring
from .graph import INSIDE
from .report import Unsupported
from .rules.session import RULE as SESSION_RULE
from .walk import children, transform, walk

PREFIX = "self__"


class _SelfToNames(cst.CSTTransformer):
    """`self.x` → `self__x`, so attributes are names of the class scope."""

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if isinstance(updated.value, cst.Name) and updated.value.value == "self":
            return cst.Name(PREFIX + updated.attr.value)
        return updated


class _NamesToSelf(cst.CSTTransformer):
    """`self__x` back to `self.x`, or to the local `x` inside a step function."""

    def __init__(self, local: dict[str, str]) -> None:
        super().__init__()
        self.local = local

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if not updated.value.startswith(PREFIX):
            return updated
        attr = updated.value[len(PREFIX):]
        if attr in self.local:
            return cst.Name(self.local[attr])
        return cst.Attribute(value=cst.Name("self"), attr=cst.Name(attr))

    def leave_Param(self, original: cst.Param, updated: cst.Param) -> cst.Param:
        name = updated.name.value
        if name.startswith(PREFIX):
            attr = name[len(PREFIX):]
            return updated.with_changes(name=cst.Name(self.local.get(attr, attr)))
        return updated


@dataclass
class GraphClass:
    """What module code may still read from instances of a converted class."""

    name: str
    variables: set[str] = field(default_factory=set)


def is_graph_class(cls: cst.ClassDef, uses_tf1_graph) -> bool:
    """A class whose `__init__` builds TF1 graph nodes (placeholders, sessions)."""
    init = _method(cls, "__init__")
    return init is not None and uses_tf1_graph(init)


def _method(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    for stmt in cls.body.body:  # type: ignore[union-attr]
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def convert_class(
    cls: cst.ClassDef, make_move, lines: dict[int, int]
) -> tuple[cst.ClassDef, GraphClass]:
    """The class with its graph moved into step functions built in `__init__`."""
    init = _method(cls, "__init__")
    assert init is not None
    members = list(cls.body.body)  # type: ignore[union-attr]
    methods = [m for m in members if isinstance(m, cst.FunctionDef) and m is not init]
    others = [m for m in members if not isinstance(m, cst.FunctionDef)]
    if any(not is_docstring(o) for o in others):
        raise Unsupported(SESSION_RULE.id, lines.get(id(cls), 0), f"class {cls.name.value} has class-level statements")
    renamed_init = transform(init, _SelfToNames())
    assert isinstance(renamed_init, cst.FunctionDef)
    renamed_methods = [transform(m, _SelfToNames()) for m in methods]
    # Findings on the renamed statements point at the original lines.
    for old, new in [*zip(init.body.body, renamed_init.body.body), *zip(methods, renamed_methods)]:  # type: ignore[union-attr]
        copy_lines(old, new, lines)
    move = make_move()
    body = list(renamed_init.body.body) + renamed_methods  # type: ignore[union-attr,operator]
    out = move._process(body, top=True)
    method_names = {m.name.value for m in methods}
    step_names = {f.name for f in move.functions.values()}
    local = {n for node in move.scope.nodes if node.kind in INSIDE or node.kind == "placeholder"
             for n in node.names}
    local = {n[len(PREFIX):] for n in local if n.startswith(PREFIX)}
    new_init: list[cst.BaseStatement] = []
    new_methods: dict[str, cst.BaseStatement] = {}
    for stmt in out:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in method_names:
            new_methods[stmt.name.value] = _to_self(stmt, {}, lines)  # type: ignore[assignment]
        elif isinstance(stmt, cst.FunctionDef) and stmt.name.value in step_names:
            attr = stmt.name.value.removeprefix(PREFIX)
            step = _to_self(stmt.with_changes(name=cst.Name(attr)), _local_names(stmt, local | {attr}), lines)
            new_init.append(step)  # type: ignore[arg-type]
            new_init.append(cst.parse_statement(f"self.{attr} = {attr}\n"))
        else:
            new_init.append(_to_self(stmt, {}, lines))  # type: ignore[arg-type]
    if not new_init:
        new_init = [cst.parse_statement("pass\n")]
    info = GraphClass(cls.name.value, {
        n[len(PREFIX):] for node in move.scope.nodes if node.kind == "variable"
        for n in node.names if n.startswith(PREFIX)
    })
    rebuilt: list[cst.BaseStatement] = []
    for member in members:
        if member is init:
            rebuilt.append(init.with_changes(body=init.body.with_changes(body=new_init)))
        elif isinstance(member, cst.FunctionDef):
            rebuilt.append(new_methods.get(member.name.value, member))  # type: ignore[arg-type]
        else:
            rebuilt.append(member)
    return cls.with_changes(body=cls.body.with_changes(body=rebuilt)), info


def _local_names(step: cst.FunctionDef, local: set[str]) -> dict[str, str]:
    """Local name of each attribute inside a step function.

    `self.x` becomes the local `x` unless the step already reads a plain `x` (an `__init__`
    parameter, a global, another local); then it takes `x_` (or `x__`, ...) so neither shadows
    the other.
    """
    def inside(node: cst.CSTNode) -> list[cst.CSTNode]:
        # an attribute's name and an argument's keyword are no reads
        return [node.value] if isinstance(node, (cst.Attribute, cst.Arg)) else children(node)

    taken = {
        node.value for node in walk(step.body, inside)
        if isinstance(node, cst.Name) and not node.value.startswith(PREFIX)
    }
    names: dict[str, str] = {}
    for attr in sorted(local):
        name = attr
        while name in taken or name in names.values():
            name += "_"
        names[attr] = name
    return names


def _to_self(stmt: cst.BaseStatement, local: dict[str, str], lines: dict[int, int]) -> cst.CSTNode:
    new = transform(stmt, _NamesToSelf(local))
    copy_lines(stmt, new, lines)
    return new


