"""Summary merges and FileWriters a driver function makes once the graph is built.

A trainer's method often starts `merged = tf.summary.merge_all()` and `writer =
tf.summary.FileWriter(logdir, self.sess.graph)` before its loop. Both are graph nodes like the
module's: the loop's runs fetch the merge, and its `add_summary` calls write through the writer.
"""

from __future__ import annotations

import libcst as cst

from ..graph import Node, call_args
from ..graph_classes import PREFIX, SUMMARIES
from ..walk import walk
from . import node_statements, summary_ops
from .state import MoveState, binding_counts

MERGES = ("summary.merge_all", "summary.merge")


def register(move: MoveState, func: cst.BaseStatement) -> dict[int, Node]:
    """The merges and writers of a driver function's own block, added to the scope, by the id
    of their statement. Each name must be bound once in the whole module: the node is the
    scope's from then on."""
    if not isinstance(func, cst.FunctionDef):
        return {}
    counts = binding_counts(move.module)
    found: dict[int, Node] = {}
    for stmt in func.body.body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(assign := stmt.body[0], cst.Assign) and len(assign.targets) == 1
                and isinstance(target := assign.targets[0].target, cst.Name)
                and isinstance(value := assign.value, cst.Call)):
            continue
        name = target.value
        if counts[name] > 1 or move.scope.lookup(name) is not None:
            continue
        path = move.aliases.resolve(value.func) or ""
        if name == PREFIX + SUMMARIES:
            path = "summary.merge_all"  # what a converted class's outside runs fetch
        if path in MERGES:
            node = summary_ops.summary_node(move, (name,), stmt, value, "")
            if not node.info["entries"]:
                node.info["foreign"] = True  # only a converted class's step may stand for it
        elif path == "summary.FileWriter" and _graph_of_session(move, value):
            node = Node((name,), "writer", stmt, value, len(move.scope.nodes))
        else:
            continue
        move.scope.add(node)
        found[id(stmt)] = node
    return found


def emitted(move: MoveState, node: Node) -> cst.SimpleStatementLine | None:
    """What a registered statement becomes: a merge goes (the steps return its values), a
    writer is a TF2 one."""
    return None if node.kind == "summary" else node_statements.writer_statement(move, node)


def read_names(nodes: dict[int, Node]) -> set[int]:
    """Ids of the names the registered statements read (`self.sess` of `self.sess.graph`):
    the emitted code no longer reads them."""
    return {id(n) for node in nodes.values() for n in walk(node.stmt) if isinstance(n, cst.Name)}


def _graph_of_session(move: MoveState, call: cst.Call) -> bool:
    """A writer of a log directory alone, or of it and a session's graph, which TF2's writer
    does not take (TensorBoard's graph tab then stays empty)."""
    args = call_args(call, ("logdir", "graph"))
    if set(args) - {"logdir", "graph"} or "logdir" not in args:
        return False
    graph = args.get("graph")
    return graph is None or (isinstance(graph, cst.Attribute) and graph.attr.value == "graph"
                             and isinstance(graph.value, cst.Name) and graph.value.value in move.scope.sessions)
