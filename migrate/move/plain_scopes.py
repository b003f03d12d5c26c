"""A `tf.variable_scope` that scopes no variable is a name scope.

TF1 code wraps loss and metric helpers in ``with tf.variable_scope('loss') as scope:`` to
name their ops (``name=scope.name``, a summary tagged ``scope.name + '/loss'``). TF2 has no
variable scopes; such a block only names ops, which ``tf.name_scope('loss')`` does the same
way (summaries made in it are prefixed as TF1's were). So in a top-level function that makes
no variable, the block becomes a name scope and ``scope.name`` the scope's literal name.

That name is TF1's only when no call of the function runs under another variable scope and
the scope takes nothing but its name; and a function makes no variable only when every call
in it is a TF op that makes none, a plain builtin or a tensor's shape method: a call of
anything else (a layer, a cell, an optimizer's ``minimize``, a function of the module) may
create variables under the scope, and then the function is left to the program move.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import LineKeeping
from ..graph import top_level_defs
from ..imports import Aliases
from ..report import Finding
from ..rules.variable_scope import RULE as SCOPE_RULE
from ..scope_reads import call_scopes
from ..walk import walk

#: TF calls that make (or may make) variables, by path or path prefix.
MAKERS = frozenset({"Variable", "get_variable", "get_local_variable", "make_template", "variable_scope",
                    "get_variable_scope", "nn.dynamic_rnn", "nn.static_rnn", "nn.bidirectional_dynamic_rnn",
                    "nn.static_bidirectional_rnn", "nn.raw_rnn", "map_fn", "while_loop", "cond", "case"})
MAKER_PREFIXES = ("layers.", "contrib.", "keras.", "nn.rnn_cell.", "metrics.", "train.", "estimator.", "compat.")
#: Calls of plain Python or of a tensor's static shape: they make no variable.
PLAIN_CALLS = frozenset({"len", "range", "int", "float", "str", "bool", "print", "list", "tuple", "dict", "zip",
                         "enumerate", "min", "max", "abs", "sum", "isinstance"})
SHAPE_METHODS = frozenset({"get_shape", "as_list", "format"})


def _makes_no_variable(func: cst.FunctionDef, aliases: Aliases) -> bool:
    scopes = {id(n.item) for n in walk(func.body) if isinstance(n, cst.WithItem)}  # read by _Blocks
    for node in walk(func.body):
        if id(node) in scopes:
            continue
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return False
        if not isinstance(node, cst.Call):
            continue
        path = aliases.resolve(node.func)
        if path is not None:
            if path in MAKERS or path.startswith(MAKER_PREFIXES):
                return False
        elif isinstance(node.func, cst.Name):
            if node.func.value not in PLAIN_CALLS:
                return False
        elif not (isinstance(node.func, cst.Attribute) and node.func.attr.value in SHAPE_METHODS):
            return False
    return True


def _scope_name(item: cst.WithItem, aliases: Aliases) -> str | None:
    """`tf.variable_scope('loss')`'s literal name, when the scope takes nothing else."""
    call = item.item
    if not (isinstance(call, cst.Call) and aliases.resolve(call.func) == "variable_scope"
            and isinstance(call.func, cst.Attribute) and len(call.args) == 1 and call.args[0].keyword is None
            and not call.args[0].star and isinstance(call.args[0].value, cst.SimpleString)):
        return None
    name = call.args[0].value.evaluated_value
    return name if isinstance(name, str) and name and "/" not in name else None


def _root(expr: cst.BaseExpression) -> cst.Name:
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    assert isinstance(expr, cst.Name)
    return expr


class _Blocks(cst.CSTVisitor):
    """The function's variable_scope blocks: each with item's full scope name, the name its
    `as` binds and the block's line; `refused` when one cannot be read as a name scope."""

    def __init__(self, aliases: Aliases, lines: dict[int, int]) -> None:
        self.aliases, self.lines = aliases, lines
        self.stack: list[list[str]] = []  # the names each enclosing with opened
        self.blocks: dict[int, tuple[str, str | None, int]] = {}  # id(WithItem) -> (name, as-name, line)
        self.refused = False

    def visit_With(self, node: cst.With) -> None:
        opened: list[str] = []
        for item in node.items:
            if isinstance(item.item, cst.Call) and self.aliases.resolve(item.item.func) == "variable_scope":
                name = _scope_name(item, self.aliases)
                asname = item.asname.name if item.asname is not None else None
                if name is None or (asname is not None and not isinstance(asname, cst.Name)):
                    self.refused = True
                    name = "?"
                full = "/".join([*(n for names in self.stack for n in names), name])
                self.blocks[id(item)] = (full, asname.value if isinstance(asname, cst.Name) else None,
                                         self.lines.get(id(node), 0))
                opened.append(name)
        self.stack.append(opened)

    def leave_With(self, original_node: cst.With) -> None:
        self.stack.pop()


def _scope_reads(func: cst.FunctionDef, names: set[str]) -> tuple[set[int], bool]:
    """The `scope.name` reads of the as-names; False when an as-name is read any other way."""
    attrs = {id(n.value) for n in walk(func.body) if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name)
             and n.value.value in names and n.attr.value == "name"}
    bound = {id(n.asname.name) for n in walk(func.body) if isinstance(n, cst.WithItem) and n.asname is not None}
    for node in walk(func.body):
        if isinstance(node, cst.Name) and node.value in names and id(node) not in attrs and id(node) not in bound:
            return attrs, False
    return attrs, True


class _Rewrite(LineKeeping):
    def __init__(self, blocks: dict[int, tuple[str, str | None]], reads: dict[int, str], lines: dict[int, int]) -> None:
        self.blocks, self.reads, self.lines = blocks, reads, lines

    def leave_WithItem(self, original: cst.WithItem, updated: cst.WithItem) -> cst.WithItem:
        if id(original) not in self.blocks:
            return updated
        call = updated.item
        assert isinstance(call, cst.Call)
        func = cst.Attribute(value=_root(call.func), attr=cst.Name("name_scope"))
        return updated.with_changes(item=call.with_changes(func=func), asname=None)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if id(original.value) in self.reads:
            return cst.SimpleString(repr(self.reads[id(original.value)]))
        return updated


def as_name_scopes(module: cst.Module, aliases: Aliases, lines: dict[int, int]) -> tuple[cst.Module, list[Finding]]:
    """The module with the variable_scope blocks of its variable-free functions as name scopes."""
    scopes = call_scopes(module, aliases)
    blocks: dict[int, tuple[str, str | None]] = {}
    reads: dict[int, str] = {}
    findings: list[Finding] = []
    for name, func in top_level_defs(module).items():
        if scopes.get(name, set()) - {""} or not _makes_no_variable(func, aliases):
            continue
        found = _Blocks(aliases, lines)
        func.body.visit(found)
        if found.refused or not found.blocks:
            continue
        by_asname = {asname: full for full, asname, _ in found.blocks.values() if asname is not None}
        if len(by_asname) != sum(1 for _, a, _ in found.blocks.values() if a is not None):
            continue  # one as-name bound by two scopes: which it reads depends on where
        attrs, plain = _scope_reads(func, set(by_asname))
        if not plain:
            continue
        blocks.update({k: (full, asname) for k, (full, asname, _) in found.blocks.items()})
        for node in walk(func.body):
            if isinstance(node, cst.Attribute) and id(node.value) in attrs:
                reads[id(node.value)] = by_asname[node.value.value]  # type: ignore[attr-defined]
        for full, _, line in found.blocks.values():
            findings.append(Finding(SCOPE_RULE.id, line, 0, f"variable_scope {full!r} scopes no variable "
                                    f"→ tf.name_scope (its ops keep their names)", "fixed"))
    if not blocks:
        return module, []
    new = module.visit(_Rewrite(blocks, reads, lines))
    assert isinstance(new, cst.Module)
    return new, findings
