"""Weight dimensions a layer's input was reshaped to (TF104).

TF1 CNNs flatten before the first dense layer and size its weight by the same number:

    pool_shape = pool2.get_shape().as_list()
    nodes = pool_shape[1] * pool_shape[2] * pool_shape[3]
    reshaped = tf.reshape(pool2, [pool_shape[0], nodes])
    with tf.variable_scope('layer5-fc1'):
        fc1_weights = tf.get_variable("weight", [nodes, FC_SIZE], ...)

The block reads two names of the function, but `nodes` is not a second input: it is the static
size of `reshaped` along the axis it was reshaped to, which a Keras layer's `build` reads from
its input's shape (`nodes = input_shape[1]`).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from .imports import Aliases
from .walk import walk


def _bound(node: cst.CSTNode) -> list[str]:
    """Plain names a statement binds (assignments, augmented assignments, loop targets)."""
    targets = [n.target for n in walk(node) if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.For))]
    return [t.value for target in targets for t in walk(target) if isinstance(t, cst.Name)]


def _statements(body: Sequence[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """The statements of a function body and of the `with` blocks in it, in order."""
    found: list[cst.BaseStatement] = []
    for stmt in body:
        found.append(stmt)
        if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
            found.extend(_statements(stmt.body.body))
    return found


def _reshape(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str, list[cst.BaseExpression]] | None:
    """(target, shape elements) of `target = tf.reshape(tensor, [d0, d1, ...])`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return None
    assign = stmt.body[0]
    value = assign.value
    if not (len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
            and isinstance(value, cst.Call) and aliases.resolve(value.func) == "reshape"
            and len(value.args) >= 2 and all(a.keyword is None for a in value.args[:2])
            and isinstance(value.args[1].value, (cst.List, cst.Tuple))
            and not any(isinstance(e, cst.StarredElement) for e in value.args[1].value.elements)):
        return None
    return assign.targets[0].target.value, [e.value for e in value.args[1].value.elements]


def reshaped_dims(body: Sequence[cst.BaseStatement], names: set[str], aliases: Aliases) -> tuple[str, list[str]] | None:
    """(the input, statements binding the other names from its shape) when all of `names` but
    one are dimensions that one was reshaped to, each name and the input bound once in `body`."""
    statements = _statements(body)
    counts: dict[str, int] = {}
    for stmt in statements:
        if isinstance(stmt, cst.With):
            continue
        for name in _bound(stmt):
            counts[name] = counts.get(name, 0) + 1
    loops = {n for s in body for node in walk(s) if isinstance(node, (cst.For, cst.While))
             for n in _bound(node)}  # a name a loop binds is not one static value
    for stmt in statements:
        found = _reshape(stmt, aliases)
        if found is None or found[0] not in names:
            continue
        target, dims = found
        axes = {d.value: i for i, d in enumerate(dims) if isinstance(d, cst.Name)}
        rest = names - {target}
        if rest and rest <= axes.keys() and all(counts.get(n) == 1 for n in names) and not (names & loops):
            return target, [f"{n} = {target}.shape[{axes[n]}]" for n in sorted(rest)]
    return None
