"""An initializer run again after the graph ran → its variables assigned their initial values.

TF's getting-started program trains `W = tf.Variable(.3)` and `b = tf.Variable(-.3)` after
`sess.run(init)` set them back from the values `tf.assign` gave them. TF2 creates a variable
with its value and has no initializer to run again, so the run becomes what it did:
`W.assign(.3)`, `b.assign(-.3)`, for every variable the initializer covers (those made
before a named `init = tf.global_variables_initializer()`, or before the run of an unnamed one).

That is TF1's reset only when nothing else held state the initializer reset: a random initial
value is drawn anew by TF1 (TF2 would need the same draw), an optimizer with slots or a
moving average has variables of its own, a schedule counts the optimizer's steps, and Keras
layers make their weights where the program does not list them. Each of those keeps the
program out of the move, with the reason.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import Node
from ..graph_classes import PREFIX as SELF_PREFIX
from ..report import Unsupported
from ..rules.session import RULE as SESSION_RULE
from ..walk import walk
from .listings import lazy_owners
from .state import MoveState

#: Initializers that cover every global variable made before them.
_GLOBAL = frozenset({"global_variables_initializer", "initialize_all_variables"})
#: Calls an initial value may make and be the same value when computed again.
_DETERMINISTIC = frozenset({"zeros", "ones", "constant", "fill", "cast", "convert_to_tensor"})
#: Kinds of graph nodes that hold no state an initializer resets (or are the run's own).
_STATELESS = frozenset({"tensor", "placeholder", "init", "session", "summary", "gradients", "saver", "graph"})
#: The one TF1 optimizer with no slot variables.
_SLOTLESS = "train.GradientDescentOptimizer"


def _fail(move: MoveState, stmt: cst.BaseStatement, why: str) -> Unsupported:
    return Unsupported(SESSION_RULE.id, move.line(stmt), f"variables initialized again after the graph ran: {why}")


def _covered(move: MoveState, call: cst.Call, stmt: cst.BaseStatement) -> list[Node]:
    """The graph nodes made before the initializer this run runs (its creation, or the run)."""
    fetch = call.args[0].value if len(call.args) == 1 else None
    if isinstance(fetch, cst.Name):
        init = move.scope.lookup(fetch.value)
        made = init.value if init is not None and init.kind == "init" else None
        if not (isinstance(made, cst.Call) and move.aliases.resolve(made.func) in _GLOBAL):
            raise _fail(move, stmt, f"{fetch.value} is not an initializer of all variables")
        return [n for n in move.scope.nodes if n.index < init.index]  # type: ignore[union-attr]
    if isinstance(fetch, cst.Call) and move.aliases.resolve(fetch.func) in _GLOBAL:
        line = move.line(stmt)
        return [n for n in move.scope.nodes if move.line(n.stmt) < line]
    raise _fail(move, stmt, "an initializer of some variables")


def _initial_value(move: MoveState, node: Node, stmt: cst.BaseStatement) -> cst.BaseExpression:
    """The variable's initial value, when computing it again gives TF1's value."""
    value = node.value
    if not (isinstance(value, cst.Call) and move.aliases.resolve(value.func) == "Variable") or node.info.get("container"):
        raise _fail(move, stmt, f"{node.name} is not a tf.Variable made from its value")
    args = [a for a in value.args if a.keyword is None or a.keyword.value == "initial_value"]
    if not args:
        raise _fail(move, stmt, f"{node.name} has no initial value the rewrite can read")
    initial = args[0].value
    for part in walk(initial):
        if isinstance(part, cst.Call):
            path = move.aliases.resolve(part.func)
            if path not in _DETERMINISTIC:
                raise _fail(move, stmt, f"{node.name}'s initial value calls {code(part.func)}(), "
                            "which the rewrite does not call again")
        elif isinstance(part, cst.Name) and move.scope.lookup(part.value) is not None:
            raise _fail(move, stmt, f"{node.name}'s initial value reads the graph value {part.value}")
        elif isinstance(part, cst.Name) and _bound_after(move, part.value, move.line(node.stmt)):
            raise _fail(move, stmt, f"{node.name}'s initial value reads {part.value}, which is bound again")
    return initial


def _bound_after(move: MoveState, name: str, line: int) -> bool:
    """Whether a statement after ``line`` binds ``name`` (an unknown line counts as after)."""
    for node in walk(move.module):
        targets: list[cst.CSTNode] = []
        if isinstance(node, cst.SimpleStatementLine):
            targets = [t.target for s in node.body if isinstance(s, cst.Assign) for t in s.targets]
            targets += [s.target for s in node.body if isinstance(s, (cst.AugAssign, cst.AnnAssign))]
            targets += [a for s in node.body if isinstance(s, (cst.Import, cst.ImportFrom))
                        for a in (s.names if isinstance(s.names, (list, tuple)) else [])]
        elif isinstance(node, (cst.For, cst.With, cst.FunctionDef, cst.ClassDef)):
            targets = [node.target] if isinstance(node, cst.For) else []
            targets += [i.asname for i in node.items if i.asname] if isinstance(node, cst.With) else []
            targets += [node.name] if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else []
        if any(isinstance(n, cst.Name) and n.value == name for t in targets for n in walk(t)):
            where = move.line(node)
            if where == 0 or where > line:
                return True
    return False


def _check_state(move: MoveState, node: Node, stmt: cst.BaseStatement) -> None:
    """Unsupported when the node holds state besides plain variables the reset would miss."""
    if lazy_owners(move, node):
        raise _fail(move, stmt, f"Keras layers made by {node.name} hold weights of their own")
    if node.kind in ("train", "optimizer"):
        optimizer = node.info["optimizer"] if node.kind == "train" else node
        path = optimizer.info["path"]  # type: ignore[attr-defined]
        if path != _SLOTLESS:
            raise _fail(move, stmt, f"tf.{path} keeps slot variables")
        return
    if node.kind not in _STATELESS:
        raise _fail(move, stmt, f"{node.name} ({node.kind}) holds state the initializer resets")


def reassignments(move: MoveState, call: cst.Call, stmt: cst.SimpleStatementLine) -> list[cst.SimpleStatementLine]:
    """`v.assign(<initial value>)` for each variable the run sets back, in creation order."""
    if move.graph_instances or move.variable_factories or move.class_mode:
        raise _fail(move, stmt, "variables made where the program model does not list them")
    if any(n.kind == "schedule" for n in move.scope.nodes):
        raise _fail(move, stmt, "a learning-rate schedule counts the optimizer's steps")
    lines: list[cst.SimpleStatementLine] = []
    for node in sorted(_covered(move, call, stmt), key=lambda n: n.index):
        if node.kind != "variable":
            _check_state(move, node, stmt)
            continue
        initial = _initial_value(move, node, stmt)
        name = node.name.removeprefix(SELF_PREFIX)
        if len(node.names) != 1 or _bound_after(move, name, move.line(node.stmt)):
            raise _fail(move, stmt, f"the name {name} is bound again after its variable was made")
        lines.append(cst.parse_statement(f"{name}.assign({code(initial)})"))  # type: ignore[arg-type]
    if not lines:
        raise _fail(move, stmt, "no variable the rewrite can set back")
    return lines
