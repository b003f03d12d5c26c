"""Name scopes inside a hand-written layer function, opened into its body (TF104).

Tutorials group a layer's graph for TensorBoard with literal name scopes around each piece:

    def add_layer(inputs, in_size, out_size, activation_function=None):
        with tf.name_scope('layer'):
            with tf.name_scope('Weights'):
                Weights = tf.Variable(tf.random_normal([in_size, out_size]), name='W')
            ...
            return outputs

Such a function is a layer like the flat one, and becomes one Keras layer. A name scope only
names ops and prefixes the tf.Variable names (`layer/Weights/W`, `layer_1/Weights/W` at the
second call), which Keras names itself, by layer; so the scopes open into the body. A scope that
names anything else is kept, and with it the function as it was: one bound with `as` (its name
read as an op name) or one around a summary (whose tag it prefixes).
"""

from __future__ import annotations

from collections import Counter

import libcst as cst

from .codegen import copy_lines, record_line
from .graph import top_level_defs
from .imports import Aliases
from .move.state import bound_names
from .report import Finding
from .rules.variable_scope import RULE
from .variable_layers import variable_call, variable_layer
from .walk import walk


def _literal_scope(stmt: cst.BaseStatement, aliases: Aliases) -> bool:
    """`with tf.name_scope('<literal>'):` with nothing bound."""
    if not (isinstance(stmt, cst.With) and len(stmt.items) == 1 and stmt.items[0].asname is None
            and isinstance(stmt.body, cst.IndentedBlock)):
        return False
    call = stmt.items[0].item
    return (isinstance(call, cst.Call) and aliases.resolve(call.func) == "name_scope" and len(call.args) == 1
            and call.args[0].keyword is None and isinstance(call.args[0].value, cst.SimpleString))


def _header_comment(stmt: cst.With) -> list[cst.EmptyLine]:
    """The comment after the `with ...:` line's colon, as a line of its own."""
    comment = stmt.body.header.comment  # type: ignore[union-attr]
    return [] if comment is None else [cst.EmptyLine(comment=comment)]


def _opened(
    body: list[cst.BaseStatement], aliases: Aliases, lines: dict[int, int],
) -> tuple[list[cst.BaseStatement], list[cst.EmptyLine]]:
    """``body`` with each literal name scope (nested ones too) replaced by its statements, and
    the comments closing its last scope; a scope's comments go with the statement after them."""
    out: list[cst.BaseStatement] = []
    pending: list[cst.EmptyLine] = []  # comments of an opened scope's line and end
    for stmt in body:
        if _literal_scope(stmt, aliases):
            block = stmt.body  # type: ignore[attr-defined]
            inner, closing = _opened(list(block.body), aliases, lines)
            lead = [*pending, *stmt.leading_lines, *_header_comment(stmt)]  # type: ignore[attr-defined]
            first = inner[0].with_changes(leading_lines=[*lead, *inner[0].leading_lines])
            copy_lines(inner[0], first, lines)
            out += [first, *inner[1:]]
            pending = [*closing, *(line for line in block.footer if line.comment is not None)]
            continue
        if pending:
            moved = stmt.with_changes(leading_lines=[*pending, *stmt.leading_lines])
            copy_lines(stmt, moved, lines)
            stmt, pending = moved, []
        out.append(stmt)
    return out, pending


def _scoped_variables(func: cst.FunctionDef, aliases: Aliases) -> bool:
    """A tf.Variable made inside a literal name scope of the function's body."""
    stack = list(func.body.body)  # type: ignore[union-attr]
    while stack:
        stmt = stack.pop()
        if _literal_scope(stmt, aliases):
            inner = list(stmt.body.body)  # type: ignore[attr-defined]
            if any(variable_call(s, aliases) for s in inner):
                return True
            stack += inner
    return False


def _weight_bound_again(body: list[cst.BaseStatement], aliases: Aliases) -> bool:
    """A weight's name bound twice in the opened body (`weights` in scope 'hidden', again in
    'linear'): the scopes kept them apart, a layer has one attribute per name."""
    weights = [found[0] for s in body if (found := variable_call(s, aliases)) is not None]
    block = cst.IndentedBlock(body)
    ids = bound_names(block)
    bound = Counter(n.value for n in walk(block) if isinstance(n, cst.Name) and id(n) in ids)
    return any(bound[w] > 1 for w in weights)


def open_name_scopes(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
) -> cst.Module:
    """The module with the literal name scopes of each layer function opened into its body."""
    replaced: dict[int, cst.FunctionDef] = {}
    for func in top_level_defs(module).values():
        if not _scoped_variables(func, aliases) or any(
            isinstance(n, cst.Call) and (aliases.resolve(n.func) or "").startswith("summary.") for n in walk(func)
        ):
            continue
        body, closing = _opened(list(func.body.body), aliases, lines)  # type: ignore[union-attr]
        footer = [*closing, *func.body.footer]  # type: ignore[union-attr]
        opened = func.with_changes(body=func.body.with_changes(body=body, footer=footer))
        if not variable_layer(opened, aliases) or _weight_bound_again(body, aliases):
            continue
        line = lines.get(id(func), 0)
        record_line(lines, opened, line)
        record_line(lines, opened.body, lines.get(id(func.body), line))
        replaced[id(func)] = opened
        findings.append(Finding(RULE.id, line, 0, f"name scopes of layer function {func.name.value} opened: "
                                "its Keras layer names its weights", "fixed"))
    if not replaced:
        return module
    return module.with_changes(body=[replaced.get(id(s), s) for s in module.body])
