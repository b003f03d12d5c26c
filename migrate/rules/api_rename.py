"""TF108: TF1 names → TF2 names and argument changes, from the one API table."""

from __future__ import annotations

import re
from collections.abc import Callable

import libcst as cst

from .. import api_data, dense_features, tf1_calls
from ..api_table import (
    CALL_TRANSFORMS,
    COMPLETE_TRANSFORMS,
    EAGER_COMPAT_CALLS,
    INITIALIZERS,
    KEYWORD_RENAMES,
    LAYER_SPECS,
    LOSS_NEUTRAL_ARGS,
    LOSSES,
    PLAIN_PREFIXES,
    QUEUE_INPUTS,
    REGULARIZERS,
    RENAMES,
    TF1_MEANING_BY_SPELLING,
    initializer_key,
    is_tf1_only,
    is_tf2_call,
)
from ..codegen import code
from ..contrib_initializers import SPECS as VARIANCE_SCALING
from ..contrib_initializers import plain_xavier, variance_scaling
from ..graph import call_args
from ..graph_layers import GRAPH_LAYERS
from ..image_resize import RESIZES, tf2_resize
from ..imports import Aliases, canonical
from ..report import Finding
from ..signature_calls import TF2_IMPLIED, rebind, spelled_for_tf2
from ..suppress import is_skipped
from ..tf1_logging import LOGGER_METHODS, level_name, logger_call
from ..tf_signs import read_as_tf1_message
from . import Rule
from .assign import ASSIGN_CALLS
from .assign import RULE as ASSIGN_RULE
from .compat_fallback import RULE as COMPAT_RULE
from .data import QUEUE_RULE
from .get_variable import initializer_args
from .layers import RULE as LAYERS_RULE
from .layers import keras_layer
from .losses import RULE as LOSSES_RULE
from .rnn_cells import LOOPS, cell_arguments, cell_name
from .rnn_cells import RULE as RNN_RULE
from .rnn_layers import KERAS_CELLS
from .rnn_layers import RULE as KERAS_RNN_RULE

RULE = Rule(
    id="TF108",
    name="api-rename",
    summary="Rename TF1 symbols and arguments to their TF2 spelling.",
    doc=(
        "Driven by `migrate/api_table.py`: `tf.log` → `tf.math.log`, `tf.random_normal` → "
        "`tf.random.normal`, `keep_dims` → `keepdims`, `tf.to_float(x)` → `tf.cast(x, "
        "tf.float32)`, `tf.nn.dropout(x, keep_prob)` → `tf.nn.dropout(x, rate=1 - keep_prob)`, "
        "v1 `softmax_cross_entropy_with_logits` → v2 with `tf.stop_gradient(labels)` (v1 did "
        "not backpropagate into labels). TF1-only names left after the program move are "
        "spelled `tf.compat.v1.<name>` and reported (TF190)."
    ),
    kind="auto",
)


def _code(node: cst.CSTNode) -> str:
    return code(node)


def _attr_chain(alias: str, path: str) -> cst.BaseExpression:
    """``alias.path`` as the parser would build it, without parsing (renames make many)."""
    chain: cst.BaseExpression = cst.Name(alias)
    for part in path.split("."):
        chain = cst.Attribute(value=chain, attr=cst.Name(part))
    return chain


def _one_minus(expr: cst.BaseExpression) -> cst.BaseExpression:
    inner = _code(expr)
    simple = isinstance(expr, (cst.Name, cst.Integer, cst.Float, cst.Attribute))
    return cst.parse_expression(f"1 - {inner}" if simple else f"1 - ({inner})")


def _dropout_keep_prob(call: cst.Call, alias: str) -> cst.Call:
    args = list(call.args)
    for i, arg in enumerate(args):
        positional_keep = i == 1 and arg.keyword is None
        if positional_keep or (arg.keyword is not None and arg.keyword.value == "keep_prob"):
            args[i] = arg.with_changes(
                keyword=cst.Name("rate"), value=_one_minus(arg.value),
                equal=cst.AssignEqual(
                    whitespace_before=cst.SimpleWhitespace(""),
                    whitespace_after=cst.SimpleWhitespace(""),
                ),
            )
    return call.with_changes(args=args)


def _is_stop_gradient(expr: cst.BaseExpression) -> bool:
    """`tf.stop_gradient(y)`: labels a rewrite already cut from the gradient."""
    return isinstance(expr, cst.Call) and _code(expr.func).endswith("stop_gradient")


def _stop_gradient_labels(call: cst.Call, alias: str) -> cst.Call:
    args = list(call.args)
    for i, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == "labels" and not _is_stop_gradient(arg.value):
            wrapped = cst.parse_expression(f"{alias}.stop_gradient({_code(arg.value)})")
            args[i] = arg.with_changes(value=wrapped)
    return call.with_changes(args=args)


def _in_top_k_targets_first(call: cst.Call, alias: str) -> cst.Call:
    """v1 `in_top_k(predictions, targets, k)` → TF2's `in_top_k(targets, predictions, k)`,
    spelled with keywords so the swap reads as intended."""
    bound = call_args(call, ("predictions", "targets", "k", "name"))
    order = [name for name in ("targets", "predictions", "k", "name") if name in bound]
    text = ", ".join(f"{name}={_code(bound[name])}" for name in order)
    return call.with_changes(args=cst.parse_expression(f"f({text})").args)  # type: ignore[attr-defined]


def _xw_plus_b(call: cst.Call, alias: str) -> cst.Call:
    """v1 `nn.xw_plus_b(x, weights, biases)` (TF1-only) is `bias_add(matmul(x, weights), biases)`."""
    bound = call_args(call, ("x", "weights", "biases", "name"))
    if not {"x", "weights", "biases"} <= set(bound):
        return call
    name = f", name={_code(bound['name'])}" if "name" in bound else ""
    return cst.parse_expression(  # type: ignore[return-value]
        f"{alias}.nn.bias_add({alias}.matmul({_code(bound['x'])}, {_code(bound['weights'])}), "
        f"{_code(bound['biases'])}{name})"
    )


def _training_flag(path: str, call: cst.Call) -> str | None:
    """The code of a layer call's `training` value when it is not a literal bool."""
    spec = LAYER_SPECS[path]
    bound = call_args(call, ("inputs", *spec.positional))
    names = [name for name, keyword in spec.call.items() if keyword == "training" and name in bound]
    value = bound[names[0]] if names else None
    if value is None or (isinstance(value, cst.Name) and value.value in ("True", "False")):
        return None
    return _code(value)


def _cast_to(dtype: str) -> Callable[[cst.Call, str], cst.Call]:
    def transform(call: cst.Call, alias: str) -> cst.Call:
        args = [a for a in call.args if a.keyword is None or a.keyword.value != "name"]
        text = ", ".join(_code(a.value) for a in args[:1])
        return cst.parse_expression(f"{alias}.cast({text}, {alias}.{dtype})")  # type: ignore[return-value]

    return transform


def _keywords_after(kept: int, params: tuple[str, ...]) -> Callable[[cst.Call, str], cst.Call]:
    """Positional arguments past the first `kept` are passed by their TF1 parameter names, for
    a TF2 function that orders its later parameters differently."""

    def transform(call: cst.Call, alias: str) -> cst.Call:
        args = list(call.args)
        for i, arg in enumerate(args):
            if arg.keyword is None and not arg.star and kept <= i < len(params):
                args[i] = arg.with_changes(
                    keyword=cst.Name(params[i]),
                    equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                )
        return call.with_changes(args=args)

    return transform


def _record_if(flag: str) -> Callable[[cst.Call, str], cst.Call]:
    """contrib's `always_record_summaries()` / `never_record_summaries()` → `summary.record_if(flag)`."""

    def transform(call: cst.Call, alias: str) -> cst.Call:
        return cst.parse_expression(f"{alias}.summary.record_if({flag})")  # type: ignore[return-value]

    return transform


def _global_step_variable(call: cst.Call, alias: str) -> cst.Call:
    return cst.parse_expression(  # type: ignore[return-value]
        f"{alias}.Variable(0, dtype={alias}.int64, trainable=False, name='global_step')"
    )


_TEMPLATE_FIELD = re.compile(r"\{\((\w+)\)\}|\{(\w+)\}")


def tf2_loss(path: str, call: cst.Call, alias: str) -> cst.BaseExpression | None:
    """The TF2 expression of a `tf.losses` call; None when an argument changes its meaning
    (weights, a reduction, label smoothing)."""
    spec = LOSSES[path]
    if any(a.star for a in call.args):
        return None
    bound = {k: _code(v) for k, v in call_args(call, spec.params).items()}
    for name, value in list(bound.items()):
        if name in LOSS_NEUTRAL_ARGS and (not LOSS_NEUTRAL_ARGS[name] or value in LOSS_NEUTRAL_ARGS[name]):
            del bound[name]
    values = {**spec.defaults, **bound}
    used = {a or b for a, b in _TEMPLATE_FIELD.findall(spec.template)}
    if set(bound) - used or used - set(values):
        return None

    def fill(match: re.Match[str]) -> str:
        grouped, plain = match.groups()
        text = values[grouped or plain]
        if grouped and not _single_term(text):
            return f"({text})"
        return text

    return cst.parse_expression(_TEMPLATE_FIELD.sub(fill, spec.template.replace("tf.", f"{alias}.")))


def _single_term(text: str) -> bool:
    expr = cst.parse_expression(text)
    return isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float))


def _keras_regularizer(path: str) -> Callable[[cst.Call, str], cst.Call]:
    def transform(call: cst.Call, alias: str) -> cst.Call:
        cls, template = REGULARIZERS[path]
        scale = call_args(call, ("scale", "scope")).get("scale")
        text = _code(scale) if scale is not None else "0.0"
        if not _single_term(text):
            text = f"({text})"
        return cst.parse_expression(f"{alias}.keras.regularizers.{cls}({template.format(scale=text)})")  # type: ignore[return-value]

    return transform


def _transform(name: str) -> Callable[[cst.Call, str], cst.Call]:
    if name.startswith("cast_to:"):
        return _cast_to(name.split(":", 1)[1])
    if name.startswith("record_if:"):
        return _record_if(name.split(":", 1)[1])
    if name.startswith("regularizer:"):
        return _keras_regularizer(name.split(":", 1)[1])
    if name.startswith("keywords_after:"):
        _, kept, params = name.split(":")
        return _keywords_after(int(kept), tuple(params.split(",")))
    return {
        "dropout_keep_prob": _dropout_keep_prob,
        "stop_gradient_labels": _stop_gradient_labels,
        "global_step_variable": _global_step_variable,
        "in_top_k_targets_first": _in_top_k_targets_first,
        "xw_plus_b": _xw_plus_b,
        "name_scope": tf1_calls.name_scope,
        "extract_glimpse": tf1_calls.extract_glimpse,
    }[name]


#: The complete transforms (`COMPLETE_TRANSFORMS`): the TF2 expression, or None.
COMPLETE: dict[str, Callable[[cst.Call, str], cst.BaseExpression | None]] = {
    "strings_split": tf1_calls.strings_split,
    "device": tf1_calls.device,
}


# TF1 dataset methods TF2 datasets lack; tf.compat.v1.data has them as functions.
DATASET_ITERATOR_METHODS = frozenset({"make_one_shot_iterator", "make_initializable_iterator"})
#: Keywords TF2 dropped from methods of any receiver (the upgrade spec's `*.minimize`): a
#: placement hint TF2 always applies, so dropping it changes no number.
METHOD_KEYWORD_DROPS: dict[str, frozenset[str]] = {
    "minimize": frozenset({"colocate_gradients_with_ops"}),
    "compute_gradients": frozenset({"colocate_gradients_with_ops"}),
}
#: Keras saves whose format TF1's Keras took from `save_format` (HDF5 by default, whatever the
#: name) and Keras 3 takes from the file's extension, refusing any other.
KERAS_SAVES = frozenset({"keras.models.save_model", "keras.saving.save_model"})
KERAS_SAVE_NOTE = ("Keras 3 takes the saved format from the file's extension and refuses a name without "
                   ".keras or .h5 (TF1's Keras wrote HDF5 to any name): name the file so")
#: TF1 names TF 2.21 lacks whose calls a transform turns into TF2 calls (the name alone has no form).
CALLED_ONLY = frozenset(p for p in CALL_TRANSFORMS if not api_data.has_tf221_form(p) and p not in RENAMES)
#: Method names the rename pass visits although they name no TensorFlow alias.
METHOD_NAMES = DATASET_ITERATOR_METHODS | METHOD_KEYWORD_DROPS.keys()


def _under_tf1_only(path: str) -> bool:
    """`GraphKeys.TRAINABLE_VARIABLES`: a member of a name TF 2.21 keeps only under compat.v1."""
    parts = path.split(".")
    return any(is_tf1_only(".".join(parts[:i])) for i in range(1, len(parts)))


class RenameTransformer(dense_features.Folding):
    """Rename TF1 symbols and arguments; spell TF1-only leftovers `compat.v1` and report them."""

    def __init__(
        self,
        aliases: Aliases,
        out_alias: str,
        lines: dict[int, int],
        findings: list[Finding],
        enabled: Callable[[str], bool],
        tf2_spelled: bool = False,
        graph_mode: bool = False,
    ) -> None:
        super().__init__()
        # In a file kept in graph mode, a TF1 layer call becomes a Keras layer built on the
        # spot: graph mode runs it once, as TF1 did (tf.compat.v1.layers needs Keras 2).
        self.graph_mode = graph_mode
        # A file already spelled `tensorflow` + `tf.compat.v1.*` (a rewrite's output) means
        # TF2 by every name that is not under compat.v1.
        self.tf2_spelled = tf2_spelled
        self.aliases = aliases
        self.alias = out_alias
        self.lines = lines
        self.findings = findings
        self.enabled = enabled
        self.compat_left = False
        self.compat_paths: set[str] = set()
        self.inner: set[int] = set()  # attributes that are the `value` of a longer chain
        self.inside_compat: set[int] = set()  # inner parts of a chain respelled compat.v1
        self.called: set[int] = set()  # attributes that are the function of a call
        self.graph_layer_calls: set[int] = set()  # functions of calls a tf1_* helper takes
        self.level_names: dict[int, cst.SimpleString] = {}  # set_verbosity's level constants, by name
        # Per enclosing `with` entered: does it set scope defaults. A `with` not entered (a
        # subtree with no TensorFlow name, a skipped statement) still has its leave hook
        # called, so each entry names its node and only that node's leave removes it.
        self.scoped_defaults: list[tuple[cst.With, bool]] = []
        self.tf2_calls: set[int] = set()  # functions of calls only TF2 accepts (kept as written)
        self.helpers: dict[str, str] = {}  # graph-mode layer helpers the file needs: name -> source
        self.rnn_cells: set[str] = set()  # cell classes the file now defines (rnn_cells.SOURCES)
        self.modelled_cells: set[int] = set()  # cell constructors replaced by those classes
        self.unmodelled_cells: set[int] = set()  # cell constructors with arguments they lack
        self.cell_names_free = True  # the module binds none of the names the classes take
        # A file whose only TF1 signs are calls TF1 and TF2 bind differently (`tf_signs`): each
        # one converted as TF1's is said to be read so.
        self.read_as_tf1 = False
        self.folds_dense_features = enabled(RULE.id)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not is_skipped(node) and super().on_visit(node)

    def _dense_features_done(self, node: cst.CSTNode) -> None:
        """A DenseFeatures layer replaced by `input_layer` (`dense_features.Folding`)."""
        self.compat_left = True
        self.compat_paths.add("feature_column.input_layer")
        self._report(RULE.id, node, dense_features.NOTE, "manual")

    def visit_With(self, node: cst.With) -> None:
        self.scoped_defaults.append((node, self._sets_scope_defaults(node)))

    def leave_With(self, original_node: cst.With, updated_node: cst.With) -> cst.With:
        if self.scoped_defaults and self.scoped_defaults[-1][0] is original_node:
            self.scoped_defaults.pop()
        return updated_node

    def _sets_scope_defaults(self, node: cst.With) -> bool:
        """A variable_scope with an initializer, regularizer or reuse: get_variable defaults a
        Keras layer would not see."""
        return any(
            isinstance(item.item, cst.Call) and self.aliases.resolve(item.item.func) == "variable_scope"
            and any(a.keyword is not None and a.keyword.value != "name_or_scope" for a in item.item.args)
            for item in node.items
        )

    def visit_Call(self, node: cst.Call) -> None:
        self.called.add(id(node.func))
        self._inline_dense_features(node)
        path = self.aliases.resolve(node.func)
        if self.graph_mode and path is not None and self._graph_layer(path, node):
            self.graph_layer_calls.add(id(node.func))
        if path == "logging.set_verbosity" and len(node.args) == 1 and node.args[0].keyword is None:
            level = level_name(self.aliases.resolve(node.args[0].value))
            if level is not None:
                self.level_names[id(node.args[0].value)] = level
        if path is not None and is_tf2_call(path, {a.keyword.value for a in node.args if a.keyword is not None}):
            self.tf2_calls.add(id(node.func))
        cell = cell_name(path) if path is not None else None
        if self._emits_cell(cell) and cell_arguments(str(cell), node) is None:
            self.unmodelled_cells.add(id(node.func))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Attribute):
            self.inner.add(id(node.value))
            path = self.aliases.resolve(node)
            if path is not None and (is_tf1_only(path) or path in RENAMES or id(node) in self.inside_compat):
                self.inside_compat.add(id(node.value))  # the whole chain is respelled once

    def _line(self, node: cst.CSTNode) -> int:
        return self.lines.get(id(node), 0)

    def _report(self, rule: str, node: cst.CSTNode, message: str, kind: str) -> None:
        self.findings.append(Finding(rule, self._line(node), 0, message, kind))

    def _spelled_compat(self, node: cst.BaseExpression) -> bool:
        text = _code(node)
        return ".compat.v1." in text or text.startswith("v1.")

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        """A cell imported by name (`from tensorflow.contrib.rnn import BasicLSTMCell`) and
        called: the file's class of that name, which replaces the import."""
        path = self.aliases.resolve(original_node) if id(original_node) in self.called else None
        if path is not None and self._emits_cell(cell_name(path)):
            return self._rnn_name(path, original_node, updated_node)
        return updated_node

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        path = self.aliases.resolve(original_node)
        if path is None or id(original_node) in self.dense_layers:
            return updated_node  # (a DenseFeatures layer: replaced with its call)
        if id(original_node) in self.level_names and self.enabled(RULE.id):
            return self.level_names[id(original_node)]  # `set_verbosity(tf.logging.INFO)`: by name
        head = updated_node.value
        if isinstance(head, cst.Name) and head.value != self.alias and self.aliases.modules.get(head.value) == "":
            updated_node = updated_node.with_changes(value=cst.Name(self.alias))
        if (self._emits_cells() and path in LOOPS) or self._emits_cell(cell_name(path)):
            return self._rnn_name(path, original_node, updated_node)
        if (path in ASSIGN_CALLS or (path in INITIALIZERS and is_tf1_only(path)) or self._inline_layer(path)
                or id(original_node) in self.graph_layer_calls
                or ((path in LOSSES or path in REGULARIZERS or path in VARIANCE_SCALING or path in CALLED_ONLY
                     or path in RESIZES or path in LOGGER_METHODS) and id(original_node) in self.called)):
            return updated_node  # rewritten by leave_Call
        if path in EAGER_COMPAT_CALLS and self._spelled_compat(updated_node):
            # TF1's function as a rewrite writes it (TF 2.21 runs it eagerly too): renamed,
            # each call would make a new variable where TF1 returned the one
            self.compat_left = True
            self.compat_paths.add(path)
            if id(original_node) in self.lines:
                self._report(COMPAT_RULE.id, original_node, f"tf.compat.v1.{path} kept (TF1's one global step)",
                             "manual")
            return updated_node
        if path in RENAMES and self.enabled(RULE.id):
            self._report(RULE.id, original_node, f"tf.{path} → tf.{RENAMES[path]}", "fixed")
            return _attr_chain(self.alias, RENAMES[path])
        if id(original_node) in self.inside_compat or id(original_node) in self.tf2_calls:
            return updated_node
        if path in self.aliases.modules.values():
            return updated_node  # `slim = tf.contrib.slim`: judged where the alias is used
        if id(original_node) not in self.inner and not api_data.has_tf221_form(path) and not path.startswith(PLAIN_PREFIXES):
            return self._without_form(path, original_node, updated_node)
        if is_tf1_only(path):
            self.compat_left = True
            self.compat_paths.add(path)
            moved = api_data.compat_renames().get(path)
            if moved is not None and id(original_node) not in self.inner:
                self._report(COMPAT_RULE.id, original_node,
                             f"tf.{path} has no TF2 form; moved to tf.compat.v1.{moved}", "manual")
                return _attr_chain(self.alias, f"compat.v1.{moved}")
            if id(original_node) in self.lines and path in QUEUE_INPUTS:
                self._report(
                    QUEUE_RULE.id, original_node,
                    f"tf.{path} is a queue-runner input pipeline; kept as tf.compat.v1.{path} "
                    "(rewrite the input with tf.data)", "manual",
                )
            elif id(original_node) in self.lines:  # not for statements the rewrite inserted
                self._report(
                    COMPAT_RULE.id, original_node,
                    f"tf.{path} has no TF2 form here; kept as tf.compat.v1.{path}", "manual",
                )
            if self._spelled_compat(updated_node):  # not `v1.x` whose `v1` became `tf`
                return updated_node
            return _attr_chain(self.alias, f"compat.v1.{path}")
        if id(original_node) not in self.inner and self.aliases.modules.get(_code(original_node).split(".")[0]) is not None:
            text = _code(updated_node)
            if (".compat.v1." in text or ".compat.v2." in text) and not _under_tf1_only(path):
                return _attr_chain(self.alias, path)
        return updated_node

    def _without_form(self, path: str, original: cst.CSTNode, updated: cst.BaseExpression) -> cst.BaseExpression:
        """A name TF 2.21 lacks under every spelling: left as written, and said so (a
        `tf.compat.v1.` spelling of it would fail the same way, only later)."""
        self.compat_left = True
        self.compat_paths.add(path)
        if id(original) in self.lines:
            self._report(COMPAT_RULE.id, original, f"tf.{path} has no TF 2.21 form; the file will not run on "
                         "TF 2.21 until it is replaced", "manual")
        return updated

    def _graph_layer(self, path: str, call: cst.Call) -> bool:
        """A weight layer the file's graph-mode helper takes with these arguments (those it
        lacks written as their TF1 default, which it leaves out)."""
        layer = GRAPH_LAYERS.get(path)
        return layer is not None and all(
            a.keyword is None or a.keyword.value in layer.keywords or _as_default(path, a) for a in call.args
        ) and not any(a.star for a in call.args)

    def _emits_cells(self) -> bool:
        """TF1-layout cells and contrib's loops: only where graph mode stays (dynamic_rnn needs it)."""
        return self.graph_mode and self.cell_names_free and self.enabled(RNN_RULE.id)

    def _emits_cell(self, cell: str | None) -> bool:
        """A TF1 cell becomes a class of the file: in graph mode one that TF1's dynamic_rnn drives
        (TF118), in eager code a Keras layer (TF120), for the cells whose names Keras can keep."""
        if cell is None or not self.graph_mode and cell not in KERAS_CELLS:
            return False
        return self._emits_cells() or (not self.graph_mode and self.cell_names_free and self.enabled(KERAS_RNN_RULE.id))

    def _rnn_name(
        self, path: str, original: cst.Attribute | cst.Name, updated: cst.Attribute | cst.Name,
    ) -> cst.BaseExpression:
        """A TF1 cell class → the file's class of that name; contrib.rnn's loops → tf.nn's."""
        cell = cell_name(path)
        if not self.graph_mode and cell is not None and id(original) not in self.unmodelled_cells:
            self.rnn_cells.add(cell)
            self.modelled_cells.add(id(original))
            self._report(KERAS_RNN_RULE.id, original, f"tf.{path} → {cell}, a Keras layer defined in the file "
                         "with TF1's variables and math", "fixed")
            return cst.Name(cell)
        self.compat_left = True
        if cell is None or id(original) in self.unmodelled_cells:
            target = LOOPS.get(path, path)
            self.compat_paths.add(target)
            if not api_data.exists(f"compat.v1.{target}"):
                return self._without_form(path, original, updated)
            self._report(COMPAT_RULE.id, original, f"tf.{path} has no TF2 form here; kept as tf.compat.v1.{target}", "manual")
            return updated if self._spelled_compat(original) else _attr_chain(self.alias, f"compat.v1.{target}")
        self.rnn_cells.add(cell)
        self.modelled_cells.add(id(original))
        self._report(RNN_RULE.id, original, f"tf.{path} → {cell} defined in the file with TF1's variables "
                     "and math (TF 2.21 with Keras 3 has no TF1 cells); graph mode kept", "manual")
        return cst.Name(cell)

    def _inline_layer(self, path: str) -> bool:
        return (self.graph_mode and path in LAYER_SPECS and LAYER_SPECS[path].in_graph
                and not any(sets for _, sets in self.scoped_defaults) and self.enabled(LAYERS_RULE.id))

    def _layer_in_graph(self, path: str, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`tf.layers.dense(x, 10)` in graph mode → `tf.keras.layers.Dense(10)(x)`."""
        keras = keras_layer(path, updated)
        if keras is None or any(k.endswith("_regularizer") for k in keras.keywords):
            # Keras 3 regularizers do not reach TF1's REGULARIZATION_LOSSES collection.
            self.compat_left = True
            self.compat_paths.add(path)
            self._report(COMPAT_RULE.id, original, f"tf.{path} has no TF2 form here; kept as tf.compat.v1.{path}", "manual")
            return updated.with_changes(func=_attr_chain(self.alias, f"compat.v1.{path}"))
        self.compat_left = True
        self._report(
            LAYERS_RULE.id, original, f"tf.{path} → tf.keras.layers.{keras.keras} built in place, graph "
            "mode kept (variable_scope reuse does not share it: share the layer object)", "manual",
        )
        layer = f"{self.alias}.keras.layers.{keras.keras}({keras.constructor})"
        flag = _training_flag(path, updated)
        if flag is not None and not LAYER_SPECS[path].weights:
            # Keras 3 layers test `training` as a Python bool; a tensor (a fed flag) picks one
            # of two calls, and tf.cast also takes a Python bool.
            return cst.parse_expression(
                f"{self.alias}.cond({self.alias}.cast({flag}, {self.alias}.bool), "
                f"lambda: {layer}({keras.inputs}, training=True), "
                f"lambda: {layer}({keras.inputs}, training=False))"
            )
        return cst.parse_expression(f"{layer}({keras.call_arguments})")

    def _method_call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """A method call no alias names: keywords TF2 dropped from it, dataset iterators."""
        func = updated.func
        dropped = METHOD_KEYWORD_DROPS.get(func.attr.value, frozenset()) if isinstance(func, cst.Attribute) else ()
        kept = [a for a in updated.args if a.keyword is None or a.keyword.value not in dropped]
        if len(kept) < len(updated.args) and self.enabled(RULE.id):
            for arg in updated.args:
                if arg.keyword is not None and arg.keyword.value in dropped:
                    self._report(RULE.id, original, f"{arg.keyword.value} dropped: TF2 always colocates "
                                 "gradients with their ops", "info")
            if kept:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(args=kept)
        return self._dataset_iterator(original, updated)

    def _dataset_iterator(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`dataset.make_initializable_iterator()` → `tf.compat.v1.data.make_initializable_iterator(
        dataset)`: TF2 datasets lack the methods; the functions still build graph iterators."""
        func = updated.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value in DATASET_ITERATOR_METHODS
            and self.enabled(RULE.id)
        ):
            return updated
        self.compat_left = True
        method = func.attr.value
        self.compat_paths.add(f"data.{method}")
        self._report(
            COMPAT_RULE.id,
            original,
            f"dataset.{method}() has no TF2 form here; kept as tf.compat.v1.data.{method}(dataset)",
            "manual",
        )
        dataset = cst.Arg(func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if updated.args
                          else cst.MaybeSentinel.DEFAULT)
        return cst.Call(func=_attr_chain(self.alias, f"compat.v1.data.{method}"), args=[dataset, *updated.args])

    def _loss(self, path: str, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`tf.losses.*` → the TF2 expression it computes; compat.v1 when weights and the like
        change it (that form also runs eagerly)."""
        loss = tf2_loss(path, updated, self.alias)
        if loss is not None:
            self._report(LOSSES_RULE.id, original, f"tf.{path} → the TF2 ops it computes (mean over elements, as TF1 reduced)", "fixed")
            return loss
        self.compat_left = True
        self.compat_paths.add(path)
        self._report(COMPAT_RULE.id, original, f"tf.{path} with weights or a reduction; kept as tf.compat.v1.{path}", "manual")
        if self._spelled_compat(original.func):
            return updated
        return updated.with_changes(func=_attr_chain(self.alias, f"compat.v1.{path}"))

    def _rebound(self, path: str, original: cst.Call, updated: cst.Call, as_written: cst.Call) -> tuple[cst.Call, bool]:
        """A TF1 call of a function whose arguments TF2 renamed, moved or removed, bound by
        the recorded signatures (only where the name is renamed as TensorFlow renames it); and
        whether it is TF1's function kept instead (`as_written`: before any transform)."""
        call, kept = self._bound_by_signatures(path, original, updated)
        if kept:
            return self._kept_tf1(path, original, as_written, kept), True
        return call, False

    def _bound_by_signatures(self, path: str, original: cst.Call, updated: cst.Call) -> tuple[cst.Call, tuple[str, ...]]:
        """The call bound by the signatures, or TF1 parameters TF2 has no counterpart for where
        TF 2.21 keeps TF1's function under compat.v1 (the call is then kept, not bound)."""
        if is_tf1_only(path):
            return updated, ()
        key, target = path, RENAMES.get(path, path)
        if target != api_data.renames().get(path, path):
            # renamed to another TF1 name of the same function (`initializers.zeros` is TF1's
            # `zeros_initializer`): bound as that one is
            mine, theirs = api_data.signature_change(path), api_data.signature_change(target)
            if mine is None or theirs is None or mine.v1 != theirs.v1:
                return updated, ()
            key = target
        rebound = rebind(key, updated)
        if rebound is None:
            return updated, ()
        if rebound.unknown and api_data.exists(f"compat.v1.{path}"):
            return updated, rebound.unknown
        if not rebound.call.deep_equals(updated):
            self._report(RULE.id, original, f"arguments of tf.{path} passed by their TF2 names", "fixed")
        change = api_data.signature_change(key)
        defaults = change.v1.defaults if change is not None else {}
        for name, value, default in rebound.dropped:
            if default:
                self._report(RULE.id, original, f"tf.{path}: {name}={value} is TF1's default and TF2 has "
                             f"no {name}; dropped", "fixed")
            else:
                behaves = (f"TF2 behaves as {name}={defaults[name]} did" if name in defaults
                           else "TF2 has no such setting")
                self._report(RULE.id, original, f"tf.{path} has no {name} in TF 2.21; {name}={value} dropped "
                             f"({behaves}): check the result", "manual")
        for name in rebound.unknown:
            self._report(RULE.id, original, f"tf.{path} has no {name} in TF 2.21 and no TF2 counterpart is "
                         "known; the call will not run until it is rewritten", "manual")
        for name in rebound.required:
            told = TF2_IMPLIED.get(key, {}).get(name, "")
            if ".compat.v1." in told:  # TF1's value, which only TF1's API says
                self.compat_left = True
                self.compat_paths.add(canonical(told.split("(")[0].removeprefix("tf.")))
                self._report(COMPAT_RULE.id, original, f"tf.{path}: the TF1 call left {name} to TF1, which "
                             f"took {told}; passed so (or pass the program's own {name})", "manual")
                continue
            self._report(RULE.id, original, f"tf.{path}: the TF1 call left {name} to TF1, and TF2 has no such "
                         f"default; check the {name} the rewrite passes (or give one)", "manual")
        return rebound.call, ()

    def _kept_compat(self, path: str, original: cst.Call, updated: cst.Call, message: str) -> cst.Call:
        """A TF1 call TF2's function would not take, or would compute otherwise: TF1's function,
        kept under compat.v1 with the arguments as written (TF 2.21 runs it, eagerly too)."""
        self.compat_left = True
        self.compat_paths.add(path)
        self._report(COMPAT_RULE.id, original, message, "manual")
        return updated.with_changes(func=_attr_chain(self.alias, f"compat.v1.{path}"))

    def _kept_tf1(self, path: str, original: cst.Call, updated: cst.Call, unknown: tuple[str, ...]) -> cst.Call:
        """A TF1 call passing what TF2's function has no parameter for."""
        return self._kept_compat(path, original, updated, f"tf.{path} has no {', '.join(unknown)} in TF 2.21 "
                                 f"and no TF2 counterpart is known; kept as tf.compat.v1.{path}")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        new = self._leave_call(original_node, updated_node)
        path = self.aliases.resolve(original_node.func) if self.read_as_tf1 else None
        if path is not None and not new.deep_equals(original_node) and _reading(path, original_node) == "ambiguous":
            self._report(RULE.id, original_node, read_as_tf1_message(path), "manual")
        return new

    def _leave_call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        path = self.aliases.resolve(original_node.func)
        if path is None:
            called = dense_features.inline(original_node, updated_node, self.aliases, self.alias)
            if called is not None and id(original_node.func.func) in self.dense_layers:  # type: ignore[attr-defined]
                self._dense_features_done(original_node)
                return called
            return self._method_call(original_node, updated_node)
        if path in ASSIGN_CALLS and len(updated_node.args) >= 2 and self.enabled(ASSIGN_RULE.id):
            target, *rest = updated_node.args
            self._report(ASSIGN_RULE.id, original_node, f"tf.{path}(v, x) → v.{path}(x)", "fixed")
            method = cst.Attribute(value=target.value, attr=cst.Name(path))
            return cst.Call(func=method, args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in rest[:1]])
        if id(original_node.func) in self.modelled_cells:
            args = cell_arguments(str(cell_name(path)), updated_node)
            return updated_node.with_changes(args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args or []])
        if not self.enabled(RULE.id):
            return updated_node
        if self.graph_mode and self.enabled(LAYERS_RULE.id) and self._graph_layer(path, updated_node):
            layer = GRAPH_LAYERS[path]
            self.helpers[layer.name] = layer.source
            self.compat_left = True
            self._report(
                LAYERS_RULE.id, original_node, f"tf.{path} → {layer.name}, defined in this file: TF1 "
                "variables under tf.compat.v1 variable scopes, graph mode kept", "manual",
            )
            args = [a for a in updated_node.args if a.keyword is None or a.keyword.value in layer.keywords]
            if args:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated_node.with_changes(func=cst.Name(layer.name), args=args)
        if self._inline_layer(path):
            return self._layer_in_graph(path, original_node, updated_node)
        if path in LOSSES:
            return self._loss(path, original_node, updated_node)
        if path in LOGGER_METHODS:
            self._report(RULE.id, original_node, f"tf.{path} → tf.get_logger().{LOGGER_METHODS[path]} "
                         "(the same logger)", "fixed")
            return logger_call(path, updated_node, self.alias)
        if path in RESIZES:
            resized = tf2_resize(path, updated_node, self.alias)
            if resized is not None:
                self._report(RULE.id, original_node, f"tf.{path} → tf.image.resize (the same numbers)", "fixed")
                return resized
            return self._kept_compat(path, original_node, updated_node,
                                     f"tf.{path} kept as tf.compat.v1.{path}: {RESIZES[path].note}")
        if path in VARIANCE_SCALING and not plain_xavier(path, updated_node):
            keras = variance_scaling(path, updated_node, self.alias)
            if keras is not None:
                self._report(RULE.id, original_node, f"tf.{path} → {code(keras)} (TF1's numbers)", "fixed")
                return keras
            return self._without_form(path, original_node.func, updated_node)
        if path in INITIALIZERS and is_tf1_only(path):
            spec = INITIALIZERS[initializer_key(path, original_node)]
            obj = spec.keras.format(args=initializer_args(original_node, spec.defaults))
            if obj.startswith("'"):
                obj = f"tf.keras.initializers.get({obj})"
            self._report(RULE.id, original_node, f"tf.{path} → {obj} (TF1 defaults explicit)", "fixed")
            initializer = cst.parse_expression(obj.replace("tf.", f"{self.alias}.", 1))
            # already in that form (a rewrite's output): the node stays, so its statement does
            return updated_node if initializer.deep_equals(updated_node) else initializer
        # a call only TF1's signature takes (`keep_prob=`) means TF1's function, whatever the file
        ambiguous = path in TF1_MEANING_BY_SPELLING and _reading(path, original_node) != "tf1"
        tf2_meant = self.tf2_spelled or self.aliases.means_tf2(original_node.func)
        if path in EAGER_COMPAT_CALLS and self._spelled_compat(original_node.func):
            return updated_node  # kept as written (leave_Attribute)
        as_written, adapted = updated_node, False
        if path in CALL_TRANSFORMS and CALL_TRANSFORMS[path] in COMPLETE_TRANSFORMS and not (ambiguous and tf2_meant):
            complete = COMPLETE[CALL_TRANSFORMS[path]](updated_node, self.alias)
            if complete is not None:
                if not complete.deep_equals(updated_node):
                    self._report(RULE.id, original_node, f"arguments of tf.{path} adapted to TF2", "fixed")
                return complete
        elif path in CALL_TRANSFORMS and not (ambiguous and tf2_meant):
            transformed = _transform(CALL_TRANSFORMS[path])(updated_node, self.alias)
            adapted = not transformed.deep_equals(updated_node)
            updated_node = transformed
        if not tf2_meant or self._spelled_compat(original_node.func):
            updated_node, kept = self._rebound(path, original_node, updated_node, as_written)
            if kept:
                return updated_node  # TF1's function, as written
        if adapted:
            self._report(RULE.id, original_node, f"arguments of tf.{path} adapted to TF2", "fixed")
        renames = KEYWORD_RENAMES.get(path)
        if renames and any(a.keyword is not None and a.keyword.value in renames for a in updated_node.args):
            args = [
                a.with_changes(keyword=cst.Name(renames[a.keyword.value]))
                if a.keyword is not None and a.keyword.value in renames
                else a
                for a in updated_node.args
            ]
            updated_node = updated_node.with_changes(args=args)
        target = RENAMES.get(path, path)
        if target != path or (tf2_meant and not self.tf2_spelled and not self._spelled_compat(original_node.func)):
            updated_node = spelled_for_tf2(target, updated_node)  # TF2's call, read as such by TF1 too
        return updated_node


def _reading(path: str, call: cst.Call) -> str | None:
    """`api_data.call_reading` of a call as written."""
    return api_data.call_reading(path, sum(1 for a in call.args if a.keyword is None),
                                 frozenset(a.keyword.value for a in call.args if a.keyword is not None))


def _as_default(path: str, arg: cst.Arg) -> bool:
    """A keyword Keras has no form for, written as TF1's default: it changes nothing."""
    spec = LAYER_SPECS.get(path)
    keyword = arg.keyword.value if arg.keyword is not None else ""
    return spec is not None and spec.unsupported.get(keyword) == code(arg.value)
