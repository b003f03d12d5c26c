"""TF2 programs that keep their TF1 graph code under explicit graphs (the TF guides' style).

A file importing TF2's `tensorflow` next to `tensorflow.compat.v1` (or reaching TF1's names
through `tf.compat.v1`, as its rewrite does), whose sessions are all
made inside `with tf.Graph().as_default():` blocks, runs as written on TF2: the graph code
builds in its own graph while the rest runs eagerly (`Saver.save(sess=None, ...)`,
`.numpy()`). The graph-mode fallback must then leave eager on.
"""

from __future__ import annotations

import libcst as cst

from .imports import Aliases, dotted
from .rules.session import INIT_CALLS, SESSION_CALLS
from .walk import children, walk

#: Calls that need graph mode (or a graph of their own): outside an explicit graph they
#: would run against TF2's eager context.
GRAPH_ONLY_CALLS = SESSION_CALLS | INIT_CALLS | frozenset({
    "placeholder", "placeholder_with_default", "get_default_session", "get_default_graph",
    "reset_default_graph", "train.MonitoredSession", "train.MonitoredTrainingSession",
    "train.SingularMonitoredSession", "train.start_queue_runners",
})


def _graph_names(module: cst.Module, aliases: Aliases) -> set[str]:
    """Names bound to a new graph (`g = tf.Graph()`)."""
    return {
        target.target.value
        for node in walk(module) if isinstance(node, cst.Assign) and _new_graph(node.value, aliases)
        for target in node.targets if isinstance(target.target, cst.Name)
    }


def _new_graph(expr: cst.BaseExpression, aliases: Aliases) -> bool:
    return isinstance(expr, cst.Call) and aliases.resolve(expr.func) == "Graph"


def _graph_block(node: cst.CSTNode, aliases: Aliases, graphs: set[str]) -> bool:
    """`with tf.Graph().as_default():` or `with g.as_default():` for a `g = tf.Graph()`."""
    if not isinstance(node, cst.With):
        return False
    for item in node.items:
        call = item.item
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "as_default"):
            continue
        owner = call.func.value
        if _new_graph(owner, aliases) or (isinstance(owner, cst.Name) and owner.value in graphs):
            return True
    return False


def _tf2_spelled(module: cst.Module, aliases: Aliases) -> bool:
    """TF2's `tensorflow` imported beside `compat.v1`, or `tf.compat.v1.x` spelled out."""
    tf_names = {name for name, path in aliases.modules.items() if path == ""}
    if aliases.v1_names and tf_names:
        return True
    return any(isinstance(node, cst.Attribute) and (dotted(node) or [])[:3] in ([name, "compat", "v1"] for name in tf_names)
               for node in walk(module))


def eager_outside_graphs(module: cst.Module, aliases: Aliases) -> bool:
    """True when the file is written against TF2's `tensorflow` and makes every session (and
    placeholder, initializer op) inside an explicit graph block."""
    if not _tf2_spelled(module, aliases):
        return False
    graphs = _graph_names(module, aliases)
    blocks = 0

    def outside(node: cst.CSTNode) -> list[cst.CSTNode]:
        nonlocal blocks
        if _graph_block(node, aliases, graphs):
            blocks += 1
            return []
        return children(node)

    graph_only = any(isinstance(node, cst.Call) and aliases.resolve(node.func) in GRAPH_ONLY_CALLS
                     for node in walk(module, outside))
    return blocks > 0 and not graph_only
