"""Layer and RNN instances: `tf.layers.*`/`tf.nn.rnn_cell.*` calls → Keras layers built once
at the top level, named as TF1 named them, and called where the graph called them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import libcst as cst

from ..api_table import LAYER_SPECS
from ..codegen import code
from ..graph import Node, call_args, calls_in, memoised_walk
from ..report import Unsupported
from ..rules.layers import RULE as LAYERS_RULE
from ..rules.layers import KerasLayerCall, has_weights, keras_layer, keras_layer_inline
from ..rules.rnn_cells import cell_name
from ..rules.rnn_layers import DYNAMIC_RNN_PARAMS, KERAS_CELLS, dynamic_rnn_layer
from ..rules.rnn_layers import RULE as KERAS_RNN_RULE
from ..rules.variable_scope import RULE as SCOPE_RULE
from ..variable_layers import variable_layer
from .state import Item, MoveState, assigns_in


def _input_arg(call: cst.Call, func: cst.FunctionDef) -> cst.Arg | None:
    """The argument a layer function's call gives its input (first parameter): the first
    positional one, or the one naming that parameter (`new_fc_layer(input=x, ...)`)."""
    params = func.params.params
    if not call.args or not params:
        return None
    first = call.args[0]
    if first.keyword is None:
        return first
    if any(a.keyword is None for a in call.args):
        return None
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == params[0].name.value), None)


def scoped_layer_instances(move: MoveState, value: cst.BaseExpression, target: str, item: Item) -> list[cst.BaseStatement]:
    """`h1 = fc_layer(x, 16, "layer1")` in the graph: the layer function became a Layer class
    that model functions build; called here, each call makes its instance here, named by the
    variable_scope the call gave (`layer1 = FcLayer(16, name="layer1")`), and calls it."""
    assert move.models is not None
    made: list[cst.BaseStatement] = []
    for call in calls_in(value):
        name = call.func.value if isinstance(call.func, cst.Name) else ""
        if (name not in move.models.layer_classes or name in move.models.model_instances
                or id(call) in move.models.call_instances):
            continue
        defs = [s for s in move.module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        scoped = move.models.scope_params.get(name)
        inputs = _input_arg(call, defs[0]) if len(defs) == 1 else None
        config_args = [a for a in call.args if a is not inputs]
        # The configuration moves to a constructor run once: it must not read graph values.
        if (item.prefix or inputs is None or any(a.star for a in call.args)
                or (scoped is None and (not variable_layer(defs[0], move.aliases)
                                        or any(move.scope.deps_of(a.value) for a in config_args)))):
            raise Unsupported(SCOPE_RULE.id, item.line, f"{target} calls layer function {name} outside a model function")
        # the op seed TF1's graph gave this call's weights (`number_layer_call`)
        seed = [f"seed={move.instance_seeds[id(call)]}"] if id(call) in move.instance_seeds else []
        if scoped is None:
            # No scope names it: TF1 made new variables at each call, so each call makes
            # its own instance, named after what it computes.
            instance = move.fresh(f"{target}_layer")
            config = ", ".join([*(code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in config_args), *seed])
            made.append(cst.parse_statement(f"{instance} = {move.models.layer_classes[name]}({config})\n"))
            move.models.call_instances[id(call)] = instance
            params = [p.name.value for p in defs[0].params.params]
            move.models.dropped_params[name] = (
                list(enumerate(params))[1:], f"configuration given to the {move.models.layer_classes[name]} constructor")
            continue
        position, param = scoped
        positional = [a for a in call.args if a.keyword is None]
        scope_arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == param),
                         positional[position] if len(positional) > position else None)
        if scope_arg is None:
            raise Unsupported(SCOPE_RULE.id, item.line, f"{target} calls {name} without a variable_scope name")
        literal = scope_arg.value.evaluated_value if isinstance(scope_arg.value, cst.SimpleString) else None
        instance = move.fresh(_instance_name(move, literal) if isinstance(literal, str) and literal.isidentifier()
                              else f"{name}_layer")
        config = [code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in config_args if a is not scope_arg]
        args = ", ".join([*config, *seed, f"name={code(scope_arg.value)}"])
        made.append(cst.parse_statement(f"{instance} = {move.models.layer_classes[name]}({args})\n"))
        move.models.call_instances[id(call)] = instance
        params = [p.name.value for p in defs[0].params.params]
        dropped, _ = move.models.dropped_params.get(name, ([], ""))
        move.models.dropped_params[name] = (
            sorted({*dropped, *enumerate(params)} - {(0, params[0])}),
            "configuration and variable_scope name given to the layer instance",
        )
        move.fixed(SCOPE_RULE.id, item.stmt, f"{name}() called in the graph → {instance}, created once")
    return made


def layer_instance(move: MoveState, node: Node, prefix: str) -> cst.BaseStatement:
    call = node.value
    assert isinstance(call, cst.Call)
    path = str(node.info["layer"])
    spec = LAYER_SPECS.get(path)
    keras = keras_layer(path, call) if spec is not None else keras_layer_inline(call, move.aliases.resolve)
    if keras is None:
        raise Unsupported(LAYERS_RULE.id, move.line(call), f"tf.{path} with an argument Keras has no form for")
    layer = move.fresh(layer_name(move, node, keras))
    if spec is None:  # already a Keras layer: it keeps its own names and call
        node.info["instance"] = layer
        node.info["call"] = f"{layer}({keras.call_arguments})"
        node.info["regularized"] = any(k.endswith("_regularizer") for k in keras.keywords)
        move.fixed(LAYERS_RULE.id, call, f"tf.keras.layers.{keras.keras} built in the graph → created once")
        return cst.parse_statement(f"{layer} = {code(call.func)}\n")  # as written: its spelling and layout
    scope = spec.scope
    if scope and not prefix and not any(a.startswith("name=") for a in keras.arguments):
        # TF1 named the layer's variables `fully_connected_1/weights`; Keras would say `dense_1`.
        taken = move.layer_scopes[scope]
        move.layer_scopes[scope] += 1
        unique = f"{scope}_{taken}" if taken else scope
        keras = replace(keras, arguments=(*keras.arguments, f"name={unique!r}"))
    node.info["instance"] = layer
    node.info["call"] = f"{layer}({keras.call_arguments})"
    node.info["regularized"] = any(k.endswith("_regularizer") for k in keras.keywords)
    training = call_args(call, ("inputs", *spec.positional)).get("training")
    flag = move.scope.lookup(training.value) if isinstance(training, cst.Name) else None
    if flag is not None and flag.kind == "placeholder":
        # Keras layers take `training` as a Python bool; a fed flag picks one of two calls.
        node.info["call"] = (
            f"tf.cond({training.value}, lambda: {layer}({keras.inputs}, training=True), "  # type: ignore[union-attr]
            f"lambda: {layer}({keras.inputs}, training=False))"
        )
    move.fixed(LAYERS_RULE.id, call, f"tf.{path} → tf.keras.layers.{keras.keras} created once")
    return cst.parse_statement(f"{layer} = tf.keras.layers.{keras.keras}({keras.constructor})\n")


def rnn_instance(move: MoveState, node: Node, prefix: str) -> cst.BaseStatement:
    """`tf.nn.dynamic_rnn(cell, x, ...)` → a Keras RNN layer over the cell, created once."""
    call = node.value
    assert isinstance(call, cst.Call)
    layer = dynamic_rnn_layer(call, move.aliases.resolve)
    cell = call_args(call, DYNAMIC_RNN_PARAMS).get("cell")
    made = move.scope.lookup(cell.value) if isinstance(cell, cst.Name) else None
    built_once = (made is not None and made.kind == "object") or (
        isinstance(cell, cst.Call) and cell_name(move.aliases.resolve(cell.func) or "") in KERAS_CELLS
    )
    if layer is None or not built_once:
        raise Unsupported(KERAS_RNN_RULE.id, move.line(call), "tf.nn.dynamic_rnn with an argument a Keras RNN has no form for")
    constructor, arguments = layer
    instance = move.fresh("rnn_layer")
    node.info["instance"] = instance
    node.info["call"] = f"{instance}({arguments})"
    if prefix:
        # Keras 3 names weights by the layers that own them and the keras.name_scopes open
        # where the layer is first called: `row_lstm/rnn/lstm_cell/kernel`, as TF1 did.
        node.info["name_scopes"] = prefix.strip("/").split("/")
    move.fixed(KERAS_RNN_RULE.id, call, "tf.nn.dynamic_rnn → tf.keras.layers.RNN created once")
    return cst.parse_statement(f"{instance} = {constructor}\n")


def layer_name(move: MoveState, node: Node, keras: KerasLayerCall) -> str:
    """The layer's TF1 name when given, `<target>_layer` for a target bound once, else the
    Keras default name (`conv2d`, `dense`)."""
    given = next((a.split("=", 1)[1] for a in keras.arguments if a.startswith("name=")), "")
    if given[1:-1].isidentifier() and given[0] == given[-1] and given[0] in "'\"":
        return _instance_name(move, given[1:-1])
    if assignments(move).get(node.name, 0) == 1:
        return f"{node.name}_layer"
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", keras.keras).lower().replace("_2_d", "2d")


def _instance_name(move: MoveState, scope: str) -> str:
    """A layer instance named by its TF1 scope: that name, or `<scope>_layer` where the program
    has it already (most often for the tensor the layer computes: `hidden = dense(..., name='hidden')`)."""
    return f"{scope}_layer" if scope in move.used_names else scope


def assignments(move: MoveState) -> Counter[str]:
    """How many statements of the module assign each plain name (counted once per module:
    it is asked for every layer)."""
    return memoised_walk("assignment counts", move.module, _assignment_counts)


def layer_has_weights(node: Node) -> bool:
    """A layer instance with variables (pooling, flatten and dropout layers have none)."""
    return bool(node.info.get("instance")) and (bool(node.info.get("rnn")) or has_weights(str(node.info["layer"])))


def _assignment_counts(node: cst.CSTNode) -> Counter[str]:
    assigns = memoised_walk("assigns", node, assigns_in)
    return Counter(t.target.value for a in assigns for t in a.targets if isinstance(t.target, cst.Name))
