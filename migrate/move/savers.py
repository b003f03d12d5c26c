"""Savers and checkpoints: `tf.train.Saver` → `tf.train.Checkpoint` of the objects it saved,
its `save`/`restore` calls → `write`/`read`.

A program that reads its checkpoints' keys (`load_checkpoint`, `list_variables`) looks them up
by TF1 variable name, which a Checkpoint changes to attribute paths: there the saver stays
TF1's name-based one, which runs eagerly given its variables (the TF guides' "Save a TF1
checkpoint in TF2": `tf.compat.v1.train.Saver(var_list=[...]).save(sess=None, save_path=...)`).
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import call_args, calls_in
from ..graph_classes import PREFIX as SELF_PREFIX
from ..report import Unsupported
from ..rules.saver import RULE as SAVER_RULE
from ..walk import walk
from . import layer_instances, moving_averages
from .state import MoveState

CHECKPOINT_STATE_READS = frozenset({"train.latest_checkpoint", "train.get_checkpoint_state"})
SAVER_PARAMS = ("var_list", "reshape", "sharded", "max_to_keep", "keep_checkpoint_every_n_hours", "name")
ALL_VARIABLES_CALLS = ("global_variables", "all_variables")
#: Reads of a checkpoint's contents by key: they see other keys once a Saver became a Checkpoint.
CHECKPOINT_KEY_READS = frozenset({"train.load_checkpoint", "train.list_variables", "train.load_variable",
                                  "train.NewCheckpointReader", "train.init_from_checkpoint"})
NAME_BASED_NOTE = ("tf.train.Saver kept name-based, eagerly (tf.compat.v1.train.Saver over its variables): "
                   "this program reads checkpoint keys by TF1 variable name, which tf.train.Checkpoint "
                   "would change to attribute paths")


def keeps_tf1_names(move: MoveState) -> bool:
    """The program reads checkpoint keys: its savers stay name-based."""
    return module_calls(move, CHECKPOINT_KEY_READS)


def saved_objects(move: MoveState, call: cst.Call, line: int) -> str:
    """Checkpoint arguments for a Saver's var_list ("" for every variable, as TF1's default)."""
    args = call_args(call, SAVER_PARAMS)
    var_list = args.get("var_list")
    for keyword in set(args) - {"var_list", "max_to_keep"}:
        raise Unsupported(SAVER_RULE.id, line, f"Saver({keyword}=...)")
    if "max_to_keep" in args and not managed(move) and not keeps_tf1_names(move):
        move.fixed(SAVER_RULE.id, line, "max_to_keep dropped: Checkpoint.write keeps every file", "info")
    averages = moving_averages.restored_averages(move, var_list)
    if averages is not None:
        if keeps_tf1_names(move):
            raise Unsupported(SAVER_RULE.id, line, "averages restored by TF1 name")
        return f"{moving_averages.CHECKPOINT_KEY}={averages.name}"
    if var_list is None or (
        isinstance(var_list, cst.Call) and move.aliases.resolve(var_list.func) in ALL_VARIABLES_CALLS
    ):
        return ""
    if keeps_tf1_names(move) and _by_names(var_list):
        return code(var_list)  # a name-based Saver takes it as written (any TF1 name)
    if isinstance(var_list, cst.Dict) and all(
        isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
        and str(e.key.evaluated_value).isidentifier() and isinstance(e.value, cst.Name)
        for e in var_list.elements
    ):
        return ", ".join(f"{e.key.evaluated_value}={code(e.value)}" for e in var_list.elements)  # type: ignore[union-attr]
    if isinstance(var_list, (cst.List, cst.Tuple)) and all(isinstance(e.value, cst.Name) for e in var_list.elements):
        return ", ".join(f"{code(e.value)}={code(e.value)}" for e in var_list.elements)
    raise Unsupported(SAVER_RULE.id, line, "Saver over a computed variable list")


def _by_names(var_list: cst.BaseExpression) -> bool:
    """`{'scoped/w': w}` or `[w, b]`: variables by name, under literal TF1 names."""
    if isinstance(var_list, cst.Dict):
        return all(isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                   and isinstance(e.value, cst.Name) for e in var_list.elements)
    return isinstance(var_list, (cst.List, cst.Tuple)) and all(isinstance(e.value, cst.Name) for e in var_list.elements)


def name_based_saver(move: MoveState, call: cst.Call, objects: str, line: int) -> str:
    """`tf.compat.v1.train.Saver(var_list=...)`: eager Savers need their variables listed, so
    a Saver of every variable lists those the program made so far (as TF1's did)."""
    assert move.models is not None
    made = {id(c) for c in calls_in(move.module) if move.aliases.resolve(c.func) == "train.Saver"}
    bound = {id(a.value) for a in walk(move.module) if isinstance(a, cst.Assign)}
    if made - bound:  # `Saver().save(sess, path)`: a Saver no saver node stands for
        raise Unsupported(SAVER_RULE.id, line, "a Saver made where it is used, its checkpoint read by TF1 name")
    args = call_args(call, SAVER_PARAMS)
    move.eager_compat.add("train.Saver")
    if objects:
        listed = code(args["var_list"])
    else:
        if move.models.instances() or any(layer_instances.layer_has_weights(n) for n in move.scope.nodes):
            raise Unsupported(SAVER_RULE.id, line, "Saver of a model's variables read back by TF1 name")
        names = dict.fromkeys(n.name for n in move.scope.nodes if n.kind == "variable")
        if any(name.startswith(SELF_PREFIX) for name in names):
            raise Unsupported(SAVER_RULE.id, line, "Saver of an object's variables read back by TF1 name")
        listed = "[" + ", ".join(names) + "]"
    keep = f", max_to_keep={code(args['max_to_keep'])}" if "max_to_keep" in args else ""
    return f"tf.compat.v1.train.Saver(var_list={listed}{keep})"


def checkpoint_source(move: MoveState, line: int = 0) -> str:
    """A Checkpoint tracking every variable and model the program created so far, and the
    variables of the converted graph classes' instances it holds (`self.net.w` as `w`)."""
    assert move.models is not None
    owners = [n.name for n in move.scope.nodes if n.kind == "variable"]
    owners += move.models.instances()
    owners += [str(n.info["instance"]) for n in move.scope.nodes if layer_instances.layer_has_weights(n)]
    pairs = [(o.removeprefix(SELF_PREFIX), o) for o in owners]
    # the shadows TF1's Saver saved, under the key an evaluation program restores them from
    averages = [n.name for n in move.scope.nodes if n.kind == "averages"]
    if len(averages) > 1:
        raise Unsupported(SAVER_RULE.id, line, "Saver of two ExponentialMovingAverages")
    pairs += [(moving_averages.CHECKPOINT_KEY, name) for name in averages]
    for instance, cls in move.graph_instances.items():
        pairs += [(attr, f"{instance}.{attr}") for attr in cls.variables]
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Unsupported(SAVER_RULE.id, line, "Saver of variables that share an attribute name in two objects")
    return "tf.train.Checkpoint(" + ", ".join(f"{key}={value}" for key, value in pairs) + ")"


def driver_savers(move: MoveState, stmt: cst.BaseStatement) -> dict[str, cst.Call]:
    """`name = tf.train.Saver(...)` in a function run after the graph is built, by name."""
    if not isinstance(stmt, cst.FunctionDef):
        return {}
    found: dict[str, cst.Call] = {}
    for node in walk(stmt.body):
        if (isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                and isinstance(node.value, cst.Call) and move.aliases.resolve(node.value.func) == "train.Saver"):
            found[node.targets[0].target.value] = node.value
    return found


def driver_saver_source(move: MoveState, call: cst.Call, line: int) -> str:
    """The Checkpoint a driver function's Saver becomes, over the variables made by then."""
    if keeps_tf1_names(move):
        raise Unsupported(SAVER_RULE.id, line, "a Saver made after the graph, its checkpoint read by TF1 name")
    objects = saved_objects(move, call, line)
    return f"tf.train.Checkpoint({objects})" if objects else checkpoint_source(move, line)


def saver_call(move: MoveState, call: cst.Call) -> cst.BaseExpression | None:
    """`saver.save(sess, path)` → `saver.write(path)`; `restore` → `read`."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in ("save", "restore")):
        return None
    receiver = func.value
    node = move.scope.lookup(receiver.value) if isinstance(receiver, cst.Name) else None
    made = move.driver_savers.get(receiver.value) if isinstance(receiver, cst.Name) else None
    if node is not None and node.kind == "saver":
        made = node.value  # type: ignore[assignment]
    # `model.saver.save(sess, path)` outside a converted class reaches its Checkpoint too.
    of_instance = (isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name)
                   and receiver.attr.value in getattr(move.graph_instances.get(receiver.value.value), "savers", ()))
    if not of_instance and made is None:
        return None
    args = call_args(call, ("sess", "save_path", "global_step"))
    if "save_path" not in args or set(args) - {"sess", "save_path", "global_step"}:
        raise Unsupported(SAVER_RULE.id, move.line(call), "Saver call with arguments the model does not map")
    path = code(args["save_path"])
    saver = code(receiver)
    if keeps_tf1_names(move):
        if of_instance or (func.attr.value == "restore" and "global_step" in args):
            raise Unsupported(SAVER_RULE.id, move.line(call), "Saver call the name-based saver does not map")
        step = f", global_step={code(args['global_step'])}" if "global_step" in args else ""
        return cst.parse_expression(f"{saver}.{func.attr.value}(sess=None, save_path={path}{step})")
    averages = moving_averages.restored_averages(move, call_args(made, SAVER_PARAMS).get("var_list")) if (
        made is not None) else None
    if func.attr.value == "restore" and averages is not None:
        return cst.parse_expression(moving_averages.restore_call(move, averages, saver, path, move.line(call)))
    stepped = "global_step" in args and made is not None
    if func.attr.value == "save" and (stepped or module_calls(move, CHECKPOINT_STATE_READS)):
        # Saver.save also recorded the file in the directory's `checkpoint` state, which
        # latest_checkpoint reads (here or in an evaluation program), and kept max_to_keep
        # files; Checkpoint.write does neither, CheckpointManager.save does both.
        if not stepped:
            raise Unsupported(SAVER_RULE.id, move.line(call), "Saver.save read back through latest_checkpoint")
        keep = call_args(made, SAVER_PARAMS).get("max_to_keep")
        folder, name = _split_path(args["save_path"])
        if folder.startswith("os.path.") and not imports_os(move):
            move.new_imports.add("os")
        return cst.parse_expression(
            f"tf.train.CheckpointManager({saver}, {folder}, "
            f"max_to_keep={code(keep) if keep is not None else '5'}, "
            f"checkpoint_name={name}).save(checkpoint_number={code(args['global_step'])})"
        )
    if "global_step" in args:
        path = f"'%s-%d' % ({path}, {code(args['global_step'])})"
    method = "write" if func.attr.value == "save" else "read"
    return cst.parse_expression(f"{saver}.{method}({path})")


def _split_path(path: cst.BaseExpression) -> tuple[str, str]:
    """The folder and file name of a save path: `os.path.join(folder, name)` as written, a
    literal path cut at its last `/`, else through `os.path` (imported when the module has no
    `import os`)."""
    if (isinstance(path, cst.Call) and code(path.func) == "os.path.join" and len(path.args) == 2
            and not any(a.keyword or a.star for a in path.args)):
        return code(path.args[0].value), code(path.args[1].value)
    if isinstance(path, cst.SimpleString) and not path.prefix and isinstance(text := path.evaluated_value, str):
        folder, _, name = text.rpartition("/")
        if folder and name and "\\" not in path.value:
            quote = path.quote
            return f"{quote}{folder}{quote}", f"{quote}{name}{quote}"
    return f"os.path.dirname({code(path)})", f"os.path.basename({code(path)})"


def managed(move: MoveState) -> bool:
    """Whether the program's saves go through a CheckpointManager, which keeps max_to_keep
    files: it reads checkpoint state, or saves at a step."""
    return module_calls(move, CHECKPOINT_STATE_READS) or any(
        isinstance(c.func, cst.Attribute) and c.func.attr.value == "save"
        and "global_step" in call_args(c, ("sess", "save_path", "global_step")) for c in calls_in(move.module))


def module_calls(move: MoveState, paths: frozenset[str]) -> bool:
    """Whether the module calls any of these TF names."""
    return any(move.aliases.resolve(c.func) in paths for c in calls_in(move.module))


def imports_os(move: MoveState) -> bool:
    return any(
        isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Import)
        and any(code(a.name) == "os" and a.asname is None for a in stmt.body[0].names)
        for stmt in move.module.body
    )
