"""The layers of a model function that creates its `tf.Variable` weights without scopes (TF104).

Course code (the PKU LeNet-5 `forward(x, train, regularizer)`) builds each layer as its weights
followed by the ops that read them, with no variable_scope around them:

    conv1_w = get_weight([5, 5, 1, 32], regularizer)
    conv1_b = get_bias([32])
    conv1 = conv2d(x, conv1_w)
    relu1 = tf.nn.relu(tf.nn.bias_add(conv1, conv1_b))
    pool1 = max_pool_2x2(relu1)
    conv2_w = ...

Each group (its weights, then the statements up to the last that reads one of them) is a
layer: opened as `with tf.variable_scope("conv1"):`, named after the weights' common prefix, the
function is the model of those layers that the scope conversion (scoped_models.py) builds.
What follows a group's last weight read (`pool1`, a flatten, `if train: dropout`) stays in the
model, between its layers. A scope only names the variables (`conv1/Variable`), which the Keras
layer names itself. Runs after the variable helpers are inlined (variable_wrappers.py) and
the builders called once (inline.py): a function inlined at its one call needs no layers.
"""

from __future__ import annotations

import os

import libcst as cst

from .codegen import code, copy_lines, record_line
from .graph import names_read, top_level_defs
from .imports import Aliases
from .report import Finding, Unsupported
from .rules.variable_scope import RULE
from .variable_layers import assigned_names, variable_call
from .walk import walk

#: A model has several layers; a function of one group is a layer function (variable_layers.py).
_MIN_GROUPS = 2


def _groups(body: list[cst.BaseStatement], aliases: Aliases) -> list[tuple[int, int]] | None:
    """(start, end) of each group in `body`: its weights, then the statements through the
    last that reads one of them. None when a weight stands anywhere else (after a statement
    reading this group's weights but before the group ended, read by no statement, or read
    after its group ended)."""
    groups: list[tuple[int, int]] = []
    index = 0
    while index < len(body):
        if variable_call(body[index], aliases) is None:
            index += 1
            continue
        start = index
        weights: set[str] = set()
        while index < len(body) and (made := variable_call(body[index], aliases)) is not None:
            weights.add(made[0])
            index += 1
        last = None
        for at in range(index, len(body)):
            if variable_call(body[at], aliases) is not None:
                break
            if {n.value for n in names_read(body[at])} & weights:
                last = at
        if last is None or any({n.value for n in names_read(s)} & weights for s in body[last + 1:]):
            return None  # a weight read after its group (tied weights): not one layer's own
        groups.append((start, last + 1))
        index = last + 1
    return groups


def _returned_by_name(
    body: list[cst.BaseStatement], last: int, taken: set[str], lines: dict[int, int],
) -> list[cst.BaseStatement]:
    """``body`` with a last group ending in `return <expr>` ending in `output = <expr>`, the
    `return output` after it: the layer computes the value, the model returns it."""
    stmt = body[last]
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Return)
            and stmt.body[0].value is not None):
        return body
    name = "output"
    while name in taken:
        name = f"{name}_"
    assign = stmt.with_changes(body=[cst.Assign([cst.AssignTarget(cst.Name(name))], stmt.body[0].value)])
    ret = cst.parse_statement(f"return {name}\n")
    copy_lines(stmt, assign, lines)
    copy_lines(stmt, ret, lines)
    return [*body[:last], assign, ret, *body[last + 1:]]


def _values(value: cst.BaseExpression | None) -> list[str]:
    """The names a `return` gives back as they are (`return y, w`), not those it computes with."""
    if isinstance(value, cst.Name):
        return [value.value]
    if isinstance(value, (cst.Tuple, cst.List)):
        return [n for e in value.elements for n in _values(e.value)]
    return []


def _name(weights: list[str], taken: set[str], number: int) -> str:
    """The weights' common prefix without its separator (`conv1_w`, `conv1_b` → `conv1`), else
    `layer<n>`; never a name already taken."""
    prefix = os.path.commonprefix(weights).rstrip("_")
    name = prefix if prefix.isidentifier() and prefix not in weights else f"layer{number}"
    while name in taken:
        name = f"{name}_"
    return name


def _grouped(
    func: cst.FunctionDef, aliases: Aliases, lines: dict[int, int],
) -> tuple[cst.FunctionDef, dict[str, list[str]]] | None:
    """The function with each group in its own `with tf.variable_scope(...)`, and each scope's
    name -> its weights; None when it is no such model."""
    if not isinstance(func.body, cst.IndentedBlock) or not func.params.params or func.decorators:
        return None
    body = list(func.body.body)
    if any(isinstance(n, cst.With) for s in body for n in walk(s)):
        return None  # scopes of its own: named by them, or a layer function's
    groups = _groups(body, aliases)
    if groups is None or len(groups) < _MIN_GROUPS:
        return None
    weights = [made[0] for s in body if (made := variable_call(s, aliases)) is not None]
    bound = [n for s in body for n in assigned_names(s)]
    returned = {n for s in body for r in walk(s) if isinstance(r, cst.Return) for n in _values(r.value)}
    if any(bound.count(w) > 1 for w in weights) or returned & set(weights):
        return None  # a name for two weights, or weights the caller gets: not layers' own
    first = variable_call(body[groups[0][0]], aliases)
    assert first is not None
    tf_root = code(first[1].func.value) if isinstance(first[1].func, cst.Attribute) else None
    if tf_root is None:
        return None
    named: dict[str, list[str]] = {}  # scope name -> weights: one per layer (an op may share it, `conv1 = conv2d(...)`)
    body = _returned_by_name(body, groups[-1][1] - 1, {n.value for n in walk(func) if isinstance(n, cst.Name)}, lines)
    out: list[cst.BaseStatement] = []
    done = 0
    for number, (start, end) in enumerate(groups, 1):
        out.extend(body[done:start])
        weights = [made[0] for s in body[start:end] if (made := variable_call(s, aliases)) is not None]
        name = _name(weights, set(named), number)
        named[name] = weights
        inner = [s.with_changes(leading_lines=[]) if i == 0 else s for i, s in enumerate(body[start:end])]
        scope = cst.parse_statement(f"with {tf_root}.variable_scope({name!r}):\n    pass\n")
        assert isinstance(scope, cst.With)
        block = scope.with_changes(body=scope.body.with_changes(body=inner), leading_lines=body[start].leading_lines)
        record_line(lines, block, lines.get(id(body[start]), 0))
        copy_lines(body[start], inner[0], lines)
        out.append(block)
        done = end
    out.extend(body[done:])
    new = func.with_changes(body=func.body.with_changes(body=out))
    record_line(lines, new, lines.get(id(func), 0))
    record_line(lines, new.body, lines.get(id(func.body), 0))
    return new, named


def group_layers(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
    made: dict[str, list[str]] | None = None,
) -> cst.Module:
    """The module with each unscoped model function's layers in scopes of their own; `made`
    gets each scope's name (which the user never wrote, see `told_as_groups`) -> its weights."""
    replaced: dict[int, cst.FunctionDef] = {}
    for func in top_level_defs(module).values():
        grouped = _grouped(func, aliases, lines)
        if grouped is None:
            continue
        replaced[id(func)], named = grouped
        if made is not None:
            made.update(named)
        findings.append(Finding(RULE.id, lines.get(id(func), 0), 0,
                                f"{func.name.value}(): its {len(named)} groups of weights and the ops reading them "
                                "are its layers", "fixed"))
    if not replaced:
        return module
    return module.with_changes(body=[replaced.get(id(s), s) for s in module.body])  # type: ignore[arg-type]


def told_as_groups(error: Unsupported, made: dict[str, list[str]]) -> Unsupported:
    """The error with a scope this pass made named by the weights it holds: the user wrote no
    `variable_scope 'conv1'`."""
    message = error.message
    for name, weights in made.items():
        message = message.replace(f"variable_scope {name!r}", f"the layer of {', '.join(weights)}")
    return error if message == error.message else Unsupported(error.rule, error.line, message)
