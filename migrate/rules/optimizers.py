"""TF106: `tf.train.*Optimizer` + minimize/compute_gradients/apply_gradients → Keras optimizers."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..api_table import OPTIMIZERS
from ..graph import call_args
from . import Rule

RULE = Rule(
    id="TF106",
    name="optimizer-to-keras",
    summary="Train with a GradientTape and a Keras optimizer's apply_gradients.",
    doc=(
        "`opt.minimize(loss)`, `opt.compute_gradients(loss)` and `opt.apply_gradients(gv)` "
        "become a `tf.GradientTape` over the loss plus `optimizer.apply_gradients(zip(grads, "
        "vars))` inside the step function. The Keras optimizer is created once, outside the "
        "function, one instance per variable list (Keras 3 refuses a second list), with "
        "arguments that keep TF1's numbers: GradientDescent → SGD (bitwise), Momentum → "
        "SGD(momentum, nesterov), Adam → Adam(epsilon=1e-8), Adagrad → "
        "Adagrad(initial_accumulator_value=0.1, epsilon=0.0), Adadelta → Adadelta(epsilon=1e-8). "
        "Adam's betas and RMSprop's and Adadelta's rho are written as the float32 values TF1 "
        "held (0.9 → 0.8999999761581421): Keras subtracts them from 1 in float64, TF1 in "
        "float32, and only the float32 value gives TF1's `1 - beta`. "
        "A learning rate fed through a placeholder is assigned to `optimizer.learning_rate` in "
        "the step; a rate computed from variables in one expression (a tf.cond warmup on "
        "global_step) becomes a callable rate `lambda: <expression>`, which Keras evaluates "
        "before each update as TF1 did; `tf.train.*_decay` becomes a Keras schedule, and a "
        "fetched decayed rate is the schedule at the step. Under a schedule or a fed rate, "
        "Momentum's Keras momentum is rescaled by new rate / old rate (after each update, or "
        "before the fed rate is assigned): TF1 scales its whole accumulator by the current rate. "
        "`global_step` passed to minimize is incremented after the update."
    ),
    kind="auto",
)

RMSPROP_RULE = Rule(
    id="TF111",
    name="rmsprop-accumulator",
    summary="RMSProp has no exact Keras form: the accumulator starts at ones in TF1.",
    doc=(
        "`tf.train.RMSPropOptimizer` becomes `tf.keras.optimizers.RMSprop(rho=decay, "
        "momentum, epsilon=1e-10, centered)`, the closest Keras form. TF1 starts the "
        "mean-square accumulator at ones, Keras at zeros, so the first steps differ. The "
        "rewrite reports it; to match TF1 exactly, build the optimizer and assign 1.0 to its "
        "`*_velocity` variables before training."
    ),
    kind="manual",
)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _float_literal(code: str) -> str:
    """Keras wants a Python float learning rate: `1` → `1.0`."""
    return code + ".0" if code.isdigit() else code


@dataclass(frozen=True)
class KerasOptimizer:
    """The Keras optimizer written for one TF1 optimizer, and what the rewrite reports of it."""

    source: str
    note: str  # why the Keras form cannot match TF1 exactly ("" when it can)
    drift: str  # why it can still part from TF1 in the last bits ("" when it cannot)
    float64: tuple[str, ...]  # keywords whose `1 - value` Keras computes in float64


FLOAT64_DECAY = (
    "Keras 3 computes 1 - {names} in float64, TF1's kernel in float32: each update differs "
    "from TF1's in its last bits, which a long run can amplify where a ReLU or max-pool choice "
    "flips; write float(np.float32(value)) to reproduce TF1 bit for bit"
)


def keras_optimizer(path: str, call: cst.Call, learning_rate: str | None = None) -> KerasOptimizer:
    """The Keras optimizer for a `tf.train` optimizer call, its literals as the user wrote them.

    `learning_rate` overrides the TF1 value (used when it was fed through a placeholder).
    """
    spec = OPTIMIZERS[path]
    bound = call_args(call, spec.positional)
    kwargs: dict[str, str] = {}
    for tf1_name, value in bound.items():
        keras_name = spec.keywords.get(tf1_name, "")
        if keras_name:
            kwargs[keras_name] = _code(value)
    for keras_name, default in spec.tf1_defaults.items():
        kwargs.setdefault(keras_name, default)
    kwargs.update(spec.fixed)
    if learning_rate is not None:
        kwargs["learning_rate"] = learning_rate
    if "learning_rate" in kwargs:
        kwargs["learning_rate"] = _float_literal(kwargs["learning_rate"])
    if "momentum" in kwargs:
        kwargs["momentum"] = _float_literal(kwargs["momentum"])
    ordered = ["learning_rate"] + [k for k in kwargs if k != "learning_rate"]
    text = ", ".join(f"{k}={kwargs[k]}" for k in ordered if k in kwargs)
    source = f"tf.keras.optimizers.{spec.keras}({text})"
    return KerasOptimizer(source, spec.note, spec.drift, spec.float64_args)


MOMENTUM_RULE = Rule(
    id="TF112",
    name="momentum-changing-learning-rate",
    summary="Momentum with a changing learning rate has no exact Keras form.",
    doc=(
        "TF1 MomentumOptimizer accumulates raw gradients and multiplies the whole accumulator "
        "by the current learning rate; Keras SGD(momentum) accumulates lr-scaled steps. The two "
        "agree while the learning rate is constant and drift apart when it changes. A decayed "
        "or fed rate is handled by rescaling the momentum (TF106); a rate computed from "
        "variables (a callable rate) is reported: keep it constant or accept the difference."
    ),
    kind="manual",
)
