"""Optimizers and learning-rate schedules: TF1 optimizers → Keras optimizers made once, the
variables each trains (TF1's collections read as Keras variables), fed and decayed rates.
"""

from __future__ import annotations

import libcst as cst

from .. import codegen as cg
from ..api_table import OPTIMIZERS, SCHEDULES
from ..codegen import code
from ..graph import INSIDE, Node, backward_slice, call_args
from ..report import Unsupported
from ..rules.optimizers import FLOAT64_DECAY, MOMENTUM_RULE, RMSPROP_RULE, keras_optimizer
from ..rules.optimizers import RULE as OPTIMIZER_RULE
from ..rules.variable_scope import RULE as SCOPE_RULE
from . import layer_instances
from .state import MoveState


def schedule_source(move: MoveState, node: Node) -> str:
    path: str = node.info["path"]  # type: ignore[assignment]
    cls, positional, keywords = SCHEDULES[path]
    bound = call_args(node.value, positional)  # type: ignore[arg-type]
    args = ", ".join(f"{keywords[k]}={code(v)}" for k, v in bound.items() if k in keywords)
    move.fixed(OPTIMIZER_RULE.id, node.stmt, f"tf.{path} → Keras {cls} schedule")
    return f"tf.keras.optimizers.schedules.{cls}({args})"


def optimizer_source(move: MoveState, node: Node) -> str:
    path: str = node.info["path"]  # type: ignore[assignment]
    call: cst.Call = node.info["call"]  # type: ignore[assignment]
    lr = call_args(call, OPTIMIZERS[path].positional).get("learning_rate")
    lr_override = None
    lr_nodes = [n for n in move.scope.deps_of(lr) if n.kind != "schedule"] if lr is not None else []
    if lr is not None and any(n.kind == "schedule" for n in move.scope.deps_of(lr)):
        if not isinstance(lr, cst.Name):
            raise Unsupported(OPTIMIZER_RULE.id, move.line(call), "learning rate computed from a decay")
        schedule = move.scope.deps_of(lr)[0]
        step = schedule.info["step"]
        if isinstance(step, cst.BaseExpression) and not isinstance(step, cst.Name) and _of_variables(move, step):
            # decayed at a step computed from variables (`batch * BATCH_SIZE`): the schedule
            # called at that step before each update, as TF1 evaluated it
            node.info["rate_function"] = True
            lr_override = f"lambda: {lr.value}({code(step)})"
            move.fixed(OPTIMIZER_RULE.id, call, f"learning rate {lr.value} decayed at {code(step)} → a callable rate")
        elif isinstance(step, cst.Name) and _counted_elsewhere(move, node, step.value):
            # decayed at a step variable this optimizer's updates do not count (TF1 read it at
            # each update, however it changed, or stayed): the callable reads it too
            node.info["rate_function"] = True
            lr_override = f"lambda: {lr.value}({step.value})"
            move.fixed(OPTIMIZER_RULE.id, call, f"learning rate {lr.value} decayed at {step.value}, which its "
                       "updates do not count → a callable rate reading it")
        else:
            node.info["schedule"] = schedule
    elif isinstance(lr, cst.Name) and lr_nodes and rate_of_variables(lr_nodes[0]):
        # Keras calls a callable learning rate before each update, when TF1 evaluated it.
        move.sliced[id(lr_nodes[0])] = None
        node.info["rate_function"] = True
        lr_override = f"lambda: {code(lr_nodes[0].value)}"
        move.fixed(OPTIMIZER_RULE.id, call, f"learning rate {lr.value} computed from variables → a callable rate")
    elif isinstance(lr, cst.Name) and lr_nodes and lr_nodes[0].kind == "variable":
        # A rate the program assigns to: TF1 read the variable at each update, so does the
        # callable (given the variable itself, Keras would copy its first value).
        node.info["rate_function"] = True
        lr_override = f"lambda: {lr.value}"
        move.fixed(OPTIMIZER_RULE.id, call, f"learning rate variable {lr.value} → a callable rate")
    elif lr is not None and lr_nodes:
        if not (isinstance(lr, cst.Name) and lr_nodes[0].kind == "placeholder"):
            raise Unsupported(OPTIMIZER_RULE.id, move.line(call), "learning rate computed from graph tensors")
        move.lr_placeholders.add(id(lr_nodes[0]))
        node.info["lr_placeholder"] = lr_nodes[0]
        lr_override = "0.01" if OPTIMIZERS[path].keras == "SGD" else "0.001"
    keras = keras_optimizer(path, call, lr_override)
    # Under a decayed or fed rate the momentum is rescaled (`_momentum_rescale`, `fed_rate`).
    if "rate_function" in node.info and path == "train.MomentumOptimizer":
        move.fixed(MOMENTUM_RULE.id, call, MOMENTUM_RULE.doc, "manual")
    move.fixed(OPTIMIZER_RULE.id, call, f"tf.{path} → {keras.source.split('(')[0]}")
    float64 = FLOAT64_DECAY.format(names=", ".join(keras.float64)) if keras.float64 else ""
    if keras.drift or float64:
        move.fixed(OPTIMIZER_RULE.id, call, "; ".join(filter(None, (float64, keras.drift))), "info")
    if keras.note:
        move.fixed(RMSPROP_RULE.id, call, keras.note, "manual")
    return keras.source


def _counted_elsewhere(move: MoveState, optimizer: Node, step: str) -> bool:
    """Is `step` a variable some train op of `optimizer` does not pass as its `global_step`
    (Keras's schedule counts the optimizer's own updates: the two part there)?"""
    made = move.scope.lookup(step)
    trains = [n for n in move.scope.nodes if n.kind == "train" and n.info.get("optimizer") is optimizer]
    if made is None or made.kind != "variable" or not trains:
        return False
    given = [n.info.get("args", {}).get("global_step") for n in trains]  # type: ignore[union-attr]
    return any(g is None or code(g) != step for g in given)


def var_list_source(move: MoveState, loss: cst.BaseExpression, given: cst.BaseExpression | None, line: int = 0) -> str:
    if given is not None:
        given_nodes = move.scope.deps_of(given)
        if isinstance(given, cst.Name) and given_nodes and given_nodes[0].kind == "collection":
            return collection_source(move, given_nodes[0])
        if given_nodes and given_nodes[0].kind == "varlist" or isinstance(given, (cst.List, cst.Tuple)):
            return code(given)
        return f"list({code(given)})"
    _, _, outside = backward_slice(move.scope.deps_of(loss))
    plain = [
        {"dict": f"*{n.name}.values()", "list": f"*{n.name}"}.get(str(n.info.get("container")), n.name)
        for n in outside if n.kind == "variable" and n.trainable
    ]
    parts = ["[" + ", ".join(plain) + "]"] if plain else []
    inside, _, _ = backward_slice(move.scope.deps_of(loss))
    for n in inside:
        if layer_instances.layer_has_weights(n):
            parts.append(f"{n.info['instance']}.trainable_variables")
    assert move.models is not None
    for n in inside:
        for model in move.models.models_called(n.value):
            parts.append(f"{model}.trainable_variables")
    if not parts:
        raise Unsupported(OPTIMIZER_RULE.id, move.line(loss) or line, "loss depends on no trainable variable")
    return " + ".join(dict.fromkeys(parts))


def fed_rate(move: MoveState, opt: Node, instance: str, var_list: str, rate: str) -> list[str]:
    """Lines that set a fed learning rate; under Momentum, first rescale Keras's momentum by
    new rate / old rate, as TF1 scales its whole accumulator by the current rate."""
    lines = []
    if opt.info["path"] == "train.MomentumOptimizer":
        rescale, momentum = move.fresh("rescale"), move.fresh("momentum")
        comment = "# TF1 scales its whole momentum accumulator by the current rate: rescale Keras's."
        lines = [
            f"{instance}.build({var_list})",
            f"{comment}\n{rescale} = {rate} / {instance}.learning_rate",
            f"for {momentum} in {momentums(instance)}:\n    {momentum}.assign({momentum} * {rescale})",
        ]
    return [*lines, f"{instance}.learning_rate.assign({rate})"]


def optimizer_for(move: MoveState, train: Node, var_list: str) -> str:
    """One Keras optimizer instance per (TF1 optimizer, variable list)."""
    opt: Node = train.info["optimizer"]  # type: ignore[assignment]
    key = (id(opt), var_list)
    if key not in move.optimizer_instances:
        if id(opt) in move.optimizers_applied:
            raise Unsupported(
                OPTIMIZER_RULE.id, move.line(train.stmt),
                f"optimizer {opt.name} is applied to a second variable list (Keras 3 needs one instance per list)",
            )
        move.optimizer_instances[key] = opt.name
        move.optimizers_applied.add(id(opt))
    return move.optimizer_instances[key]


def collections_read(move: MoveState, expr: cst.CSTNodeT) -> cst.CSTNodeT:
    """`expr` reading the variables of a TF1 collection (`zip(grads, tvars)`) from their
    owners: the collection's statement leaves the step."""
    mapping = {n.name: f"({collection_source(move, n)})" for n in move.scope.deps_of(expr) if n.kind == "collection"}
    return expr.visit(cg.ReplaceNames(mapping)) if mapping else expr  # type: ignore[return-value]


def collection_source(move: MoveState, node: Node) -> str:
    """Trainable variables of a TF1 collection, read from their owners inside the step."""
    return trainable_source(move, node.info["scope"], node.stmt)  # type: ignore[arg-type]


def trainable_source(move: MoveState, scope: str | None, stmt: cst.CSTNode) -> str:
    """TF1's trainable variables (under `scope`, or all of them), read from their owners."""
    assert move.models is not None
    if scope is not None:
        instance = move.models.scoped_instances.get(str(scope))
        if instance is None:
            raise Unsupported(SCOPE_RULE.id, move.line(stmt), f"no model owns scope {scope!r}")
        return f"{instance}.trainable_variables"
    plain = [n.name for n in move.scope.nodes if n.kind == "variable" and n.trainable and "container" not in n.info]
    parts = (["[" + ", ".join(plain) + "]"] if plain else []) + [
        f"{name}.trainable_variables"
        for name in [*move.models.instances(),
                     *(str(n.info["instance"]) for n in move.scope.nodes if layer_instances.layer_has_weights(n))]
    ]
    if any("container" in n.info for n in move.scope.nodes):
        raise Unsupported(SCOPE_RULE.id, move.line(stmt), "trainable_variables() over variable containers")
    return " + ".join(parts) or "[]"


def momentums(optimizer: str) -> str:
    """The momentum variables of a built Keras SGD optimizer."""
    return f"[v for v in {optimizer}.variables if v.path.endswith('momentum')]"


def _of_variables(move: MoveState, expr: cst.BaseExpression) -> bool:
    """An expression of variables and plain values only."""
    deps = move.scope.deps_of(expr)
    return bool(deps) and all(d.kind == "variable" for d in deps)


def rate_of_variables(node: Node) -> bool:
    """A tensor computed in one expression from variables only (a warmup or decay rate)."""
    return node.kind == "tensor" and bool(node.deps) and all(
        d.kind not in INSIDE and d.kind != "placeholder" for d in node.deps
    ) and not node.info
