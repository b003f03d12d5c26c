"""Savers and checkpoints: `tf.train.Saver` → `tf.train.Checkpoint` of the objects it saved,
its `save`/`restore` calls → `write`/`read`.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import call_args, calls_in
from ..graph_classes import PREFIX as SELF_PREFIX
from ..report import Unsupported
from ..rules.saver import RULE as SAVER_RULE
from . import layer_instances
from .state import MoveState

CHECKPOINT_STATE_READS = frozenset({"train.latest_checkpoint", "train.get_checkpoint_state"})
SAVER_PARAMS = ("var_list", "reshape", "sharded", "max_to_keep", "keep_checkpoint_every_n_hours", "name")
ALL_VARIABLES_CALLS = ("global_variables", "all_variables")


def saved_objects(move: MoveState, call: cst.Call, line: int) -> str:
    """Checkpoint arguments for a Saver's var_list ("" for every variable, as TF1's default)."""
    args = call_args(call, SAVER_PARAMS)
    var_list = args.get("var_list")
    for keyword in set(args) - {"var_list", "max_to_keep"}:
        raise Unsupported(SAVER_RULE.id, line, f"Saver({keyword}=...)")
    if "max_to_keep" in args and not module_calls(move, CHECKPOINT_STATE_READS):
        move.fixed(SAVER_RULE.id, line, "max_to_keep dropped: Checkpoint.write keeps every file", "info")
    if var_list is None or (
        isinstance(var_list, cst.Call) and move.aliases.resolve(var_list.func) in ALL_VARIABLES_CALLS
    ):
        return ""
    if isinstance(var_list, cst.Dict) and all(
        isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
        and str(e.key.evaluated_value).isidentifier() and isinstance(e.value, cst.Name)
        for e in var_list.elements
    ):
        return ", ".join(f"{e.key.evaluated_value}={code(e.value)}" for e in var_list.elements)  # type: ignore[union-attr]
    if isinstance(var_list, (cst.List, cst.Tuple)) and all(isinstance(e.value, cst.Name) for e in var_list.elements):
        return ", ".join(f"{code(e.value)}={code(e.value)}" for e in var_list.elements)
    raise Unsupported(SAVER_RULE.id, line, "Saver over a computed variable list")


def checkpoint_source(move: MoveState) -> str:
    """A Checkpoint tracking every variable and model the program created so far."""
    assert move.models is not None
    owners = [n.name for n in move.scope.nodes if n.kind == "variable"]
    owners += move.models.instances()
    owners += [str(n.info["instance"]) for n in move.scope.nodes if layer_instances.layer_has_weights(n)]
    return "tf.train.Checkpoint(" + ", ".join(f"{o.removeprefix(SELF_PREFIX)}={o}" for o in owners) + ")"


def saver_call(move: MoveState, call: cst.Call) -> cst.BaseExpression | None:
    """`saver.save(sess, path)` → `saver.write(path)`; `restore` → `read`."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in ("save", "restore")):
        return None
    receiver = func.value
    node = move.scope.lookup(receiver.value) if isinstance(receiver, cst.Name) else None
    # `model.saver.save(sess, path)` outside a converted class reaches its Checkpoint too.
    of_instance = (isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name)
                   and receiver.attr.value in getattr(move.graph_instances.get(receiver.value.value), "savers", ()))
    if not of_instance and (node is None or node.kind != "saver"):
        return None
    args = call_args(call, ("sess", "save_path", "global_step"))
    if "save_path" not in args or set(args) - {"sess", "save_path", "global_step"}:
        raise Unsupported(SAVER_RULE.id, move.line(call), "Saver call with arguments the model does not map")
    path = code(args["save_path"])
    saver = code(receiver)
    if func.attr.value == "save" and module_calls(move, CHECKPOINT_STATE_READS):
        # Saver.save also recorded the file in the directory's `checkpoint` state, which
        # latest_checkpoint reads; Checkpoint.write does not, CheckpointManager.save does.
        if "global_step" not in args or node is None:
            raise Unsupported(SAVER_RULE.id, move.line(call), "Saver.save read back through latest_checkpoint")
        if not imports_os(move):
            move.new_imports.add("os")
        keep = call_args(node.value, SAVER_PARAMS).get("max_to_keep")  # type: ignore[arg-type]
        return cst.parse_expression(
            f"tf.train.CheckpointManager({saver}, os.path.dirname({path}), "
            f"max_to_keep={code(keep) if keep is not None else '5'}, "
            f"checkpoint_name=os.path.basename({path})).save(checkpoint_number={code(args['global_step'])})"
        )
    if "global_step" in args:
        path = f"'%s-%d' % ({path}, {code(args['global_step'])})"
    method = "write" if func.attr.value == "save" else "read"
    return cst.parse_expression(f"{saver}.{method}({path})")


def module_calls(move: MoveState, paths: frozenset[str]) -> bool:
    """Whether the module calls any of these TF names."""
    return any(move.aliases.resolve(c.func) in paths for c in calls_in(move.module))


def imports_os(move: MoveState) -> bool:
    return any(
        isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Import)
        and any(code(a.name) == "os" and a.asname is None for a in stmt.body[0].names)
        for stmt in move.module.body
    )
