"""`tf.train.ExponentialMovingAverage` of trained variables → a class defined in the file.

TF 2.21's ExponentialMovingAverage rejects Keras 3 variables (it reads `dtype.base_dtype`
of a string dtype), so the rewrite defines a small class computing TF1's averages: each
shadow starts at its variable's initial value, as TF1's initializer made it, and every
`apply` moves it toward the variable by `1 - min(decay, (1 + n) / (10 + n))`. A step makes
the shadows (`track`) before it trains the variables: a variable a tf.function makes on its
first call from one it updated earlier in that call takes the updated value.

An evaluation restoring the averages into its model (`Saver(ema.variables_to_restore())
.restore(sess, path)`) gets a `restore` method: it builds the model by tracing it on its
input's spec, makes the shadows, reads them from the checkpoint's `moving_averages` (the key
the training program's Checkpoint saves its averages under) and gives each variable its
average, as TF1's Saver restored the average under the variable's name.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import Node, call_args
from ..report import Unsupported
from ..rules.optimizers import RULE as OPTIMIZER_RULE
from ..walk import walk
from . import optimizer_objects, steps
from .state import MoveState

CLASS_NAME = "ExponentialMovingAverage"
EMA_PARAMS = ("decay", "num_updates", "zero_debias", "name")
APPLY_PARAMS = ("var_list",)

CLASS_SOURCE = '''\
class ExponentialMovingAverage(tf.Module):
    """TF1's tf.train.ExponentialMovingAverage for Keras 3 variables, which TF 2.21's rejects:
    track() makes each variable's shadow from its value before training changes it, apply()
    moves the shadows toward the variables as TF1's did. Shadows take TF1's names; a checkpoint
    holds them."""

    def __init__(self, decay, num_updates=None):
        super().__init__()
        self.decay = decay
        self.num_updates = num_updates
        self.shadows = []
        self.positions = {}

    def track(self, variables):
        for variable in variables:
            if id(variable) not in self.positions:
                self.positions[id(variable)] = len(self.shadows)
                name = getattr(variable, "path", None) or variable.name.split(":")[0]
                name = f"{name}/ExponentialMovingAverage"
                self.shadows.append(tf.Variable(variable, trainable=False, name=name))

    def apply(self, variables):
        decay = tf.constant(self.decay, tf.float32)
        if self.num_updates is not None:
            updates = tf.cast(self.num_updates, tf.float32)
            decay = tf.minimum(decay, (1.0 + updates) / (10.0 + updates))
        for variable in variables:
            shadow = self.average(variable)
            shadow.assign_sub((shadow - variable) * (1.0 - decay))

    def average(self, variable):
        return self.shadows[self.positions[id(variable)]]
'''

RESTORE_SOURCE = '''
    def restore(self, checkpoint, save_path, restored_model, *input_specs, **call_options):
        """TF1's Saver(ema.variables_to_restore()).restore: the model's variables take the
        values their averages had in the checkpoint (tracing the model builds them)."""
        tf.function(restored_model).get_concrete_function(*input_specs, **call_options)
        self.track(restored_model.trainable_variables)
        checkpoint.read(save_path).assert_existing_objects_matched().expect_partial()
        for variable in restored_model.trainable_variables:
            variable.assign(self.average(variable))
'''
#: The key of a Checkpoint's averages, the same in every program (a training script saves
#: them, an evaluation script restores them).
CHECKPOINT_KEY = "moving_averages"


def averages_source(move: MoveState, node: Node) -> str:
    """The constructor of the file's class for `tf.train.ExponentialMovingAverage(...)`; the
    object may only be applied (`average`, `variables_to_restore` read TF1 names)."""
    call = node.value
    assert isinstance(call, cst.Call)
    args = call_args(call, EMA_PARAMS)
    if any(a.star for a in call.args) or "decay" not in args:
        raise Unsupported(OPTIMIZER_RULE.id, move.line(node.stmt), "ExponentialMovingAverage without a plain decay")
    if "zero_debias" in args and code(args["zero_debias"]) != "False":
        raise Unsupported(OPTIMIZER_RULE.id, move.line(node.stmt), "ExponentialMovingAverage(zero_debias=True)")
    for attribute in walk(move.module):
        if (isinstance(attribute, cst.Attribute) and isinstance(attribute.value, cst.Name)
                and attribute.value.value == node.name and attribute.attr.value not in ("apply", "variables_to_restore")):
            raise Unsupported(OPTIMIZER_RULE.id, move.line(node.stmt), f"{node.name}.{attribute.attr.value}: only "
                              "apply() and variables_to_restore() of an ExponentialMovingAverage convert")
    move.helper_sources.setdefault(CLASS_NAME, CLASS_SOURCE)
    updates = f", num_updates={code(args['num_updates'])}" if "num_updates" in args else ""
    move.fixed(OPTIMIZER_RULE.id, node.stmt, f"tf.train.ExponentialMovingAverage → {CLASS_NAME}, defined in the file "
               "(TF 2.21's rejects Keras 3 variables); its shadows start at the variables' initial values")
    return f"{CLASS_NAME}({code(args['decay'])}{updates})"


def applied_variables(move: MoveState, node: Node) -> str:
    """The TF2 source of the variables `ema.apply(var_list)` averages."""
    call = node.value
    assert isinstance(call, cst.Call)
    given = call_args(call, APPLY_PARAMS).get("var_list")
    if given is None:
        return optimizer_objects.trainable_source(move, None, node.stmt)
    if isinstance(given, cst.Call) and not given.args and move.aliases.resolve(given.func) == "trainable_variables":
        return optimizer_objects.trainable_source(move, None, node.stmt)
    deps = move.scope.deps_of(given)
    if isinstance(given, cst.Name) and deps and deps[0].kind == "collection":
        return optimizer_objects.collection_source(move, deps[0])
    if isinstance(given, (cst.List, cst.Tuple)) and deps and all(d.kind == "variable" for d in deps):
        return code(given)
    raise Unsupported(OPTIMIZER_RULE.id, move.line(node.stmt), "ExponentialMovingAverage.apply of variables the rewrite cannot list")


def is_apply(move: MoveState, value: cst.BaseExpression) -> Node | None:
    """The averages node of `ema.apply(...)`, when `ema` is one."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "apply"
            and isinstance(value.func.value, cst.Name)):
        return None
    node = move.scope.lookup(value.func.value.value)
    return node if node is not None and node.kind == "averages" else None


def track_and_apply(move: MoveState, node: Node) -> tuple[str, str]:
    """The step's statements for `ema.apply(...)`: the shadows made before any update, and
    the averages moved."""
    averages: Node = node.info["averages"]  # type: ignore[assignment]
    variables = applied_variables(move, node)
    move.fixed(OPTIMIZER_RULE.id, node.stmt, f"{averages.name}.apply → {averages.name}.track, making the shadows "
               f"before any update, and {averages.name}.apply")
    return f"{averages.name}.track({variables})", f"{averages.name}.apply({variables})"


def restore_map(move: MoveState, value: cst.BaseExpression) -> Node | None:
    """The averages node of `ema.variables_to_restore()`, when `ema` is one."""
    if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "variables_to_restore" and isinstance(value.func.value, cst.Name)):
        return None
    node = move.scope.lookup(value.func.value.value)
    return node if node is not None and node.kind == "averages" else None


def restored_averages(move: MoveState, var_list: cst.BaseExpression | None) -> Node | None:
    """The averages a Saver's `var_list` restores: `ema.variables_to_restore()`, inline or by name."""
    if var_list is None:
        return None
    if isinstance(var_list, cst.Name):
        node = move.scope.lookup(var_list.value)
        return node.info["averages"] if node is not None and node.kind == "restore_map" else None  # type: ignore[return-value]
    return restore_map(move, var_list)


def restore_call(move: MoveState, averages: Node, saver: str, path: str, line: int) -> str:
    """`saver.restore(sess, path)` of a Saver over `ema.variables_to_restore()`: the averages'
    `restore` into the program's one model, traced on the placeholders it is called with."""
    assert move.models is not None
    instances = move.models.instances()
    trainable = optimizer_objects.trainable_source(move, None, averages.stmt)
    if len(instances) != 1 or trainable != f"{instances[0]}.trainable_variables":
        raise Unsupported(OPTIMIZER_RULE.id, line, "averages restored into variables of more than one model")
    model = instances[0]
    calls = [c for c in walk(move.module) if isinstance(c, cst.Call) and isinstance(c.func, cst.Name)
             and c.func.value == model]
    inputs = {tuple(code(a.value) for a in c.args) for c in calls}
    if len(inputs) != 1:
        raise Unsupported(OPTIMIZER_RULE.id, line, f"averages restored into {model}, called on other inputs at its calls")
    specs = []
    given, _ = move.models.dropped_params.get(model, ([], ""))
    positions, names = {p for p, _ in given}, {n for _, n in given}
    flags = dict(move.models.flag_params.get(model, []))
    for position, arg in enumerate(calls[0].args):
        if arg.keyword is None and position in positions or arg.keyword is not None and arg.keyword.value in names:
            continue  # the model's configuration, given to its constructor
        if arg.keyword is None and position in flags and _literal(arg.value):
            specs.append(f"{flags[position]}={code(arg.value)}")  # a Python argument of its call, traced with it
            continue
        node = move.scope.lookup(arg.value.value) if isinstance(arg.value, cst.Name) and arg.keyword is None else None
        if node is None or node.kind != "placeholder":
            raise Unsupported(OPTIMIZER_RULE.id, line, f"averages restored into {model}, called on a computed input")
        specs.append(steps.placeholder_spec(move, node))
    move.helper_sources[CLASS_NAME] = CLASS_SOURCE + RESTORE_SOURCE
    move.fixed(OPTIMIZER_RULE.id, line, f"restore of {averages.name}.variables_to_restore() → {averages.name}.restore: "
               f"{model} is built, and its variables take their averages from the checkpoint's {CHECKPOINT_KEY}")
    return f"{averages.name}.restore({saver}, {path}, {model}, {', '.join(specs)})"


def _literal(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)) or (
        isinstance(expr, cst.Name) and expr.value in ("None", "True", "False"))
