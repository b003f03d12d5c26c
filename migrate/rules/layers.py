"""TF109: `tf.layers.dense(x, ...)` → a `tf.keras.layers.Dense(...)` created once and called."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from ..api_table import LAYER_SPECS
from ..graph import call_args
from . import Rule

RULE = Rule(
    id="TF109",
    name="layers-to-keras",
    summary=(
        "Replace tf.layers and tf.contrib.layers functions with Keras layer objects created once; "
        "Keras layers a TF1 graph builds are created once as written."
    ),
    doc=(
        "`h = tf.layers.dense(x, units, activation)` becomes a `tf.keras.layers.Dense(units, "
        "activation)` instance created outside the step function and `h = dense(x)` inside "
        "it, so the weights are created once and reused on every step (a function call would "
        "create new weights each time). conv2d, conv2d_transpose, max/average_pooling2d, "
        "flatten, dropout and batch_normalization map the same way (`migrate/api_table.py`, "
        "LAYER_SPECS), as do contrib's fully_connected, conv2d, max_pool2d, flatten and "
        "dropout with contrib's own defaults made explicit (relu activation, keep_prob → rate "
        "= 1 - keep_prob, dropout on unless is_training=False); contrib l2/l1 regularizers "
        "become Keras regularizers and reads of the REGULARIZATION_LOSSES collection the "
        "layers' `losses`. A fed boolean `training` flag selects between the layer's two modes "
        "with `tf.cond` (Keras layers take a Python bool); UPDATE_OPS collections and their "
        "`control_dependencies` go, since Keras layers update batch statistics when called in "
        "training. Keras layers a TF1 graph builds itself, inline (`tf.keras.layers.Dense(8)(x)`) "
        "or by name and then called (`dense = ...; h = dense(x)`, also `tf.keras.Sequential`), "
        "are created once as written and trained through their `trainable_variables`. "
        "TF1's fused batch norm (4-D inputs) updates the moving variance with the "
        "unbiased batch variance, Keras with the biased one. In a file that stays in graph mode "
        "the Keras layer is built in place (`tf.keras.layers.Dense(10)(x)`), which does not "
        "share weights through variable_scope reuse; that is reported."
    ),
    kind="auto",
)


@dataclass(frozen=True)
class KerasLayerCall:
    """A TF1 layer call split into the Keras layer's constructor and its call."""

    keras: str  # class name under tf.keras.layers
    arguments: tuple[str, ...]  # constructor arguments: values, then `keyword=value`s
    inputs: str
    call_keywords: str  # `training=...` for the call, or ""
    keywords: frozenset[str]  # the constructor's keywords

    @property
    def constructor(self) -> str:
        return ", ".join(self.arguments)

    @property
    def call_arguments(self) -> str:
        return f"{self.inputs}, {self.call_keywords}" if self.call_keywords else self.inputs


def keras_layer(path: str, call: cst.Call) -> KerasLayerCall | None:
    """The Keras form of `tf.layers.*`/`tf.contrib.layers.*` with TF1 defaults made explicit;
    None when the call uses an argument Keras has no form for (normalizer_fn, renorm, *args)
    other than as its TF1 default (`normalizer_fn=None` changes nothing)."""
    spec = LAYER_SPECS[path]
    if any(a.star for a in call.args):
        return None
    bound = call_args(call, ("inputs", *spec.positional))
    inputs = bound.pop("inputs", None)
    if inputs is None or any(_code(bound.pop(k)) != default for k, default in spec.unsupported.items() if k in bound):
        return None
    constructor: dict[str, str] = {}
    call_keywords: dict[str, str] = {}
    for tf1_name, value in bound.items():
        text = _code(value)
        if tf1_name in spec.call:
            call_keywords[spec.call[tf1_name]] = text
            continue
        if tf1_name == spec.no_bias_when_none and text == "None":
            constructor["use_bias"] = "False"
            continue
        keras_name = spec.keywords.get(tf1_name, tf1_name)
        if keras_name:
            constructor[keras_name] = _one_minus(value) if tf1_name in spec.complement else text
    for keras_name, default in spec.tf1_defaults.items():
        constructor.setdefault(keras_name, default)
    for keras_name, default in spec.call_defaults.items():
        call_keywords.setdefault(keras_name, default)
    parts: list[str] = []
    for tf1_name in spec.positional[: spec.leading]:
        keras_name = spec.keywords.get(tf1_name, tf1_name)
        if keras_name not in constructor:
            break
        parts.append(constructor.pop(keras_name))
    parts += [f"{k}={v}" for k, v in constructor.items()]
    return KerasLayerCall(
        spec.keras, tuple(parts), _code(inputs), ", ".join(f"{k}={v}" for k, v in call_keywords.items()),
        frozenset(constructor),
    )


# Keras layers without variables: nothing of theirs is trained, saved or listed.
WEIGHTLESS_KERAS = frozenset({
    "Activation", "ActivityRegularization", "Add", "AlphaDropout", "Average", "AveragePooling1D",
    "AveragePooling2D", "AveragePooling3D", "AvgPool2D", "Concatenate", "Cropping1D", "Cropping2D",
    "Dot", "Dropout", "ELU", "Flatten", "GaussianDropout", "GaussianNoise", "GlobalAveragePooling1D",
    "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "LeakyReLU", "MaxPool2D",
    "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "Maximum", "Minimum", "Multiply", "Permute",
    "ReLU", "RepeatVector", "Reshape", "Softmax", "SpatialDropout1D", "SpatialDropout2D",
    "Subtract", "UpSampling1D", "UpSampling2D", "ZeroPadding1D", "ZeroPadding2D",
})


def keras_layer_inline(call: cst.Call, resolve: Callable[[cst.BaseExpression], str | None]) -> KerasLayerCall | None:
    """`tf.keras.layers.Dense(8, ...)(x, ...)` built in a TF1 graph: already Keras, so its two
    calls split as written into the constructor and the call."""
    inner = call.func
    if not isinstance(inner, cst.Call) or not call.args or call.args[0].keyword is not None:
        return None
    cls = (resolve(inner.func) or "").removeprefix("keras.layers.")
    if not cls[:1].isupper() or "." in cls or any(a.star for a in (*inner.args, *call.args)):
        return None
    keywords = frozenset(a.keyword.value for a in inner.args if a.keyword is not None)
    return KerasLayerCall(
        cls, tuple(_argument(a) for a in inner.args), _code(call.args[0].value),
        ", ".join(_argument(a) for a in call.args[1:]), keywords,
    )


def has_weights(path: str) -> bool:
    """Whether the layer `path` (a TF1 layer function or `keras.layers.<Class>`) has variables."""
    spec = LAYER_SPECS.get(path)
    return spec.weights if spec is not None else path.rsplit(".", 1)[-1] not in WEIGHTLESS_KERAS


def _argument(arg: cst.Arg) -> str:
    return f"{arg.keyword.value}={_code(arg.value)}" if arg.keyword is not None else _code(arg.value)


def _one_minus(expr: cst.BaseExpression) -> str:
    text = _code(expr)
    simple = isinstance(expr, (cst.Name, cst.Attribute, cst.Integer, cst.Float))
    return f"1 - {text}" if simple else f"1 - ({text})"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)
