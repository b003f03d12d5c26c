"""The Keras Layer classes TF104 makes of variable-creating code, and a model's layer calls.

A layer function's `get_variable` / `tf.Variable` statements become its Layer's `build` and
the rest its `call`; a `with tf.variable_scope("conv1"):` block of a model function holding
weights becomes a Layer of its own; in a model's `call`, the layer calls become
`self.<layer>(x)`. `scoped_models.ModelBuilder` drives these and records what they made: they
take it as their first argument, so the builder holds the conversion's state and this module
the code each Layer is written from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from . import codegen as cg
from .api_table import LAYER_SPECS, LAYERS
from .codegen import ReplaceNames, copy_lines, fill_lines, record_line
from .graph import call_args, names_read
from .imports import Aliases
from .op_seeds import is_random, uncounted
from .report import Unsupported
from .reshaped_dims import reshaped_dims
from .rules.get_variable import GET_VARIABLE_PARAMS, draws_start_values, keras_initializer
from .rules.layers import RULE as LAYERS_RULE
from .rules.layers import keras_layer
from .rules.variable_scope import RULE
from .scope_reads import (
    bound_names,
    calls_in_statements,
    free_reads,
    live_reads,
    reads_only_shapes,
    returned_value,
    statement_reads,
)
from .variable_layers import (
    SCOPES,
    SEED,
    VARIABLE_PARAMS,
    assigned_names,
    variable_call,
    variable_layer,
    variable_weight,
)
from .walk import walk

if TYPE_CHECKING:
    from .scoped_models import ModelBuilder

VARIABLE_SCOPE_PARAMS = ("name_or_scope", "default_name", "values", "initializer", "regularizer",
                         "caching_device", "partitioner", "custom_getter", "reuse")
#: Keras keywords that regularize every variable of a dense or convolution layer.
_WEIGHT_REGULARIZERS = frozenset({"kernel_regularizer", "bias_regularizer"})


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def _identifier(name: str) -> str:
    """A scope name as a Python name part (`layer1-conv1` → `layer1_conv1`)."""
    return re.sub(r"\W", "_", name)


def _indented(stmts: list[cst.BaseStatement]) -> cst.IndentedBlock:
    return cst.IndentedBlock(body=stmts)


def get_variable_call(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str, cst.Call] | None:
    """(target, call) of `target = tf.get_variable(...)`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return None
    small = stmt.body[0]
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
        return None
    target, value = small.targets[0].target, small.value
    if (isinstance(target, cst.Name) and isinstance(value, cst.Call)
            and aliases.resolve(value.func) == "get_variable"):
        return target.value, value
    return None


def _shape_source(source: str, inputs: str, shape_map: dict[str, str], config: dict[str, str]) -> str:
    """Code computing a weight's shape with the input's shape read from `build`'s `input_shape`
    (a tuple of ints: TF1's `Dimension.value` is the int itself) and configuration from self."""
    for old, new in sorted(shape_map.items(), key=lambda kv: -len(kv[0])):
        source = source.replace(old, new)

    class Dimensions(cst.CSTTransformer):
        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            shape = updated.value
            if (updated.attr.value == "value" and isinstance(shape, cst.Subscript)
                    and isinstance(shape.value, cst.Name) and shape.value.value == "input_shape"):
                return shape
            return updated

    module = cst.parse_module(source).visit(ReplaceNames(config)).visit(Dimensions())
    return module.code.strip()


def _configured(line: str, config: dict[str, str]) -> str:
    """A line of `build` reading the layer's configuration from self: the function's parameters
    are constructor arguments there (`stddev=1.0 / n_out` → `stddev=1.0 / self.n_out`)."""
    return _code(cst.parse_statement(line + "\n").visit(ReplaceNames(config))).strip()


def _comment_lines(stmt: cst.BaseStatement) -> list[str]:
    """The comments of a weight's statement, as lines for the `build` that replaces it."""
    lines = [*cg.comments(stmt.leading_lines), *cg.inner_comments(stmt)]
    return [line.comment.value for line in lines if line.comment is not None]


# Names a Keras Layer already uses; a weight attribute must not shadow them.
_LAYER_ATTRIBUTES = frozenset({
    "weights", "trainable_weights", "non_trainable_weights", "variables", "trainable_variables",
    "non_trainable_variables", "name", "dtype", "built", "losses", "input", "output", "trainable",
    "input_spec", "path", "metrics", "supports_masking", "dtype_policy",
})


def layer_class_of(
    builder: ModelBuilder, func: cst.FunctionDef, body: list[cst.BaseStatement], cls: str | None = None,
) -> cst.ClassDef:
    """The Layer class of a layer function; `cls` names one made from a model's scope block."""
    params = list(func.params.params)
    if not params or func.params.star_arg not in (cst.MaybeSentinel.DEFAULT, None) or func.params.kwonly_params:
        raise Unsupported(RULE.id, builder.line(func), f"{func.name.value}: unsupported parameters")
    inputs, config = params[0].name.value, params[1:]
    # tf.Variable weights take a name_scope's name too; get_variable ones do not.
    kinds = ("variable_scope",)
    if variable_layer(func, builder.aliases):
        kinds = SCOPES
        builder.fresh_layers.add(func.name.value)
    scope_param = builder.body_scope_param(body, [p.name.value for p in params], kinds)
    if scope_param is not None:
        # `with tf.variable_scope(name):` over the whole body: the caller's literal names
        # the layer instance, so the parameter leaves the layer's configuration.
        body = list(body[0].body.body)  # type: ignore[attr-defined]
        position = [p.name.value for p in params].index(scope_param)
        builder.scope_params[func.name.value] = (position, scope_param)
        config = [p for p in config if p.name.value != scope_param]
    config_names = [p.name.value for p in config]
    weights: list[str] = []
    build: list[str] = []
    shape_map = {f"{inputs}.shape": "input_shape", f"{inputs}.get_shape()": "input_shape",
                 f"{inputs}.get_shape().as_list()": "input_shape", f"{inputs}.shape.as_list()": "input_shape"}
    self_config = {n: f"self.{n}" for n in config_names}
    last_weight = max((i for i, s in enumerate(body) if _weight_statement(builder, s)), default=-1)
    weight_inputs = _weight_inputs(builder, body[: last_weight + 1])
    moved: list[cst.BaseStatement] = []  # shape statements, now computed in build
    draws = 0  # random initial values so far: the next one's op seed is the layer's seed plus this
    regularized = False
    regularizer_sources: list[str] = []  # those of the tf.Variable weights, read from self
    dense_ok = not cls  # a layer function, not a scope block of a model
    dense_weights: list[tuple[str, str, str, str]] = []  # (target, shape, initializer, regularizer)
    for index, stmt in enumerate(body):
        found = get_variable_call(stmt, builder.aliases)
        created = variable_call(stmt, builder.aliases)
        if created is not None:
            dense_ok = False  # a tf.Variable's draws take the layer's op seeds: its own class
            weight = variable_weight(*created, draws, builder.aliases, builder.line(stmt))
            draws += weight.draws
            given = call_args(created[1], VARIABLE_PARAMS).get("regularizer")
            if given is not None:
                regularized = True
                regularizer_sources.append(_code(given.visit(ReplaceNames(self_config))))
            shape = _shape_source(_code(weight.shape), inputs, shape_map, self_config)
            if inputs in free_reads(cst.parse_expression(shape)):
                raise Unsupported(RULE.id, builder.line(stmt), "weight shape depends on the input beyond its shape")
            attr = f"{weight.target}_" if weight.target in _LAYER_ATTRIBUTES else weight.target
            build.extend(_comment_lines(stmt))
            build.append(_configured(f"self.{attr} = self.add_weight(name={weight.name}, shape={shape}, "
                                     f"initializer={weight.initializer}{weight.extra})", self_config))
            weights.append(weight.target)
            continue
        if found is None:
            if index < last_weight and id(stmt) in weight_inputs:
                shape_lines = _shape_statement(builder, stmt, inputs, shape_map, self_config)
                build.extend(shape_lines)
                moved.extend([stmt] if shape_lines else [])
            continue
        target, call = found
        args = call_args(call, GET_VARIABLE_PARAMS)
        if "shape" not in args or "name" not in args:
            raise Unsupported(RULE.id, builder.line(stmt), "get_variable in a layer function needs name and shape")
        shape = _shape_source(_code(args["shape"]), inputs, shape_map, self_config)
        if inputs in free_reads(cst.parse_expression(shape)):
            raise Unsupported(RULE.id, builder.line(stmt), "weight shape depends on the input beyond its shape")
        dtype = _code(args["dtype"]) if "dtype" in args else "tf.float32"
        init = keras_initializer(args.get("initializer"), dtype, builder.aliases, builder.line(stmt))
        extra = f", dtype={dtype}" if "dtype" in args else ""
        if "trainable" in args:
            extra += f", trainable={_code(args['trainable'])}"
        if "regularizer" in args and _code(args["regularizer"]) != "None":
            # TF1's penalty regularizer(v), in REGULARIZATION_LOSSES; Keras's in the layer's losses
            extra += f", regularizer={_code(args['regularizer'])}"
            regularized = True
        attr = f"{target}_" if target in _LAYER_ATTRIBUTES else target
        comments = _comment_lines(stmt)
        build.extend(comments)
        build.append(_configured(
            f"self.{attr} = self.add_weight(name={_code(args['name'])}, shape={shape}, "
            f"initializer={init}{extra})", self_config,
        ))
        weights.append(target)
        # random initial values: Dense draws them in its own order, under its own seeds
        dense_ok = (dense_ok and not comments and set(args) <= {"name", "shape", "initializer", "regularizer"}
                    and not draws_start_values(call, builder.aliases))
        dense_weights.append((target, _configured(shape, self_config), init,
                              _code(args["regularizer"]) if "regularizer" in args else "None"))
    mapping = {w: f"self.{w}_" if w in _LAYER_ATTRIBUTES else f"self.{w}" for w in weights} | self_config
    call_body = [s.visit(ReplaceNames(mapping)) for s in body if not _weight_statement(builder, s) and s not in moved]
    read = {n.value for s in call_body for n in names_read(s)}
    kept = [s for s in moved if set(assigned_names(s)) & read]
    call_body = [s.visit(ReplaceNames(mapping)) for s in kept] + call_body
    block = cls is not None
    cls = cls or camel(func.name.value)
    builder.layer_classes[func.name.value] = cls
    fed = [] if block else _placeholders_read(builder, func, call_body)
    if fed:
        builder.placeholder_inputs[func.name.value] = fed
        inputs = ", ".join([inputs, *fed])
    if regularized:
        builder.regularized_layers.add(cls)
    config_sig = "".join(f"{_code(p.with_changes(comma=cst.MaybeSentinel.DEFAULT))}, " for p in config)

    def draws_seeds(stmts: list[cst.BaseStatement]) -> bool:
        calls = calls_in_statements([s for s in stmts if variable_call(s, builder.aliases) is None])
        return any(is_random(c, builder.aliases) or uncounted(c, builder.aliases) for c in calls)

    weights_end = last_weight + 1
    builder.layer_draws[cls] = None if draws_seeds(body[:weights_end]) else (draws, not draws_seeds(body[weights_end:]))
    if draws:
        if SEED in config_names:
            raise Unsupported(RULE.id, builder.line(func), f"{func.name.value} takes a parameter named {SEED}")
        config_names = [*config_names, SEED]
        config_sig += f"{SEED}=None, "
    dense = _dense_arguments(builder, inputs, config_names, dense_weights, call_body) if (
        dense_ok and not fed and not draws and not moved) else None
    if dense is not None:
        builder.fixed(func, f"function {func.name.value} → Keras layer {cls}, a tf.keras.layers.Dense")
        builder.note_library_function(func, cls)
        source = (f"class {cls}(tf.keras.layers.Dense):\n"
                  f"    def __init__(self, {config_sig}**kwargs):\n"
                  f"        super().__init__({dense}, **kwargs)\n")
        layer = cst.parse_statement(source).with_changes(leading_lines=func.leading_lines)
        fill_lines(layer, builder.line(func), builder.lines)
        return layer  # type: ignore[return-value]
    init_values, build = _regularizers_made_once(build, config_names, call_body, regularizer_sources)
    init_lines = "".join(f"        self.{n} = {init_values.get(n, n)}\n" for n in config_names)
    build_lines = "".join(f"        {line}\n" for line in build)
    source = (
        f"class {cls}(tf.keras.layers.Layer):\n"
        f"    def __init__(self, {config_sig}**kwargs):\n"
        f"        super().__init__(**kwargs)\n{init_lines}\n"
        f"    def build(self, input_shape):\n{build_lines}\n"
        f"    def call(self, {inputs}):\n        pass\n"
    )
    cls_node = with_call_body(source, call_body)
    if block:
        builder.fixed(func, f"variable_scope block with its weights → Keras layer {cls}")
    else:
        builder.fixed(func, f"function {func.name.value} → Keras layer {cls}")
        builder.note_library_function(func, cls)
    layer = cls_node.with_changes(leading_lines=func.leading_lines)
    fill_lines(layer, builder.line(func), builder.lines)  # the weights built from source report at the def
    return layer


def _regularizers_made_once(
    build: list[str], config: list[str], call_body: list[cst.BaseStatement], sources: list[str],
) -> tuple[dict[str, str], list[str]]:
    """A regularizer every weight builds alike from one parameter (`sources`: a helper's scale,
    `l2_regularizer(self.regularizer) if self.regularizer != None else None`), made once by the
    constructor: `self.regularizer = <it>` and `regularizer=self.regularizer`. Nothing else may
    read the parameter; else ({}, build) as they were."""
    made = set(sources)
    if len(made) != 1:
        return {}, build
    (source,) = made
    attributes = {n.attr.value for n in walk(cst.parse_expression(source)) if isinstance(n, cst.Attribute)
                  and isinstance(n.value, cst.Name) and n.value.value == "self"}
    params = [n for n in config if n in attributes]
    if len(params) != 1 or attributes != {params[0]}:
        return {}, build
    param = params[0]
    given = f"regularizer={source}"
    new_build = [line.replace(given, f"regularizer=self.{param}") for line in build]
    rest = "\n".join(new_build).replace(f"regularizer=self.{param}", "") + "".join(_code(s) for s in call_body)
    if re.search(rf"\bself\.{re.escape(param)}\b", rest) or new_build == build:
        return {}, build
    made_once = cst.parse_expression(source).visit(_SelfToParam(param))
    return {param: _code(made_once)}, new_build


class _SelfToParam(cst.CSTTransformer):
    """`self.<param>` → `<param>`: the constructor reads its argument."""

    def __init__(self, param: str) -> None:
        super().__init__()
        self.param = param

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if isinstance(updated.value, cst.Name) and updated.value.value == "self" and updated.attr.value == self.param:
            return cst.Name(self.param)
        return updated


def with_call_body(source: str, body: list[cst.BaseStatement]) -> cst.ClassDef:
    """The class `source` defines, its last method (a `call` whose body is `pass`) given `body`:
    the generated class around the user's own statements, which keep their comments and lines."""
    cls_node = cst.parse_statement(source)
    assert isinstance(cls_node, cst.ClassDef)
    members = list(cls_node.body.body)  # type: ignore[union-attr]
    call_def = members[-1]
    assert isinstance(call_def, cst.FunctionDef)
    members[-1] = call_def.with_changes(body=_indented(body))
    return cls_node.with_changes(body=cls_node.body.with_changes(body=members))


#: TF1 activations a Keras Dense layer takes as its `activation` (by the name the module resolves).
DENSE_ACTIVATIONS = frozenset({"nn.relu", "nn.relu6", "nn.elu", "nn.selu", "nn.tanh", "tanh", "nn.sigmoid",
                               "sigmoid", "nn.softplus", "nn.softsign", "nn.softmax"})


def _dense_arguments(
    builder: ModelBuilder, inputs: str, config: list[str], weights: list[tuple[str, str, str, str]],
    body: list[cst.BaseStatement],
) -> str | None:
    """The arguments of `tf.keras.layers.Dense` computing the layer function, when that is all it
    does: a `[in, units]` kernel and a `[units]` bias made by get_variable, and
    `return act(tf.matmul(x, w) + b)` (or `tf.nn.bias_add`, or no activation), with `units` its
    one parameter. Dense computes the same numbers for the 2-D inputs TF1's matmul took."""
    if len(config) != 1 or len(weights) != 2 or len(body) != 1:
        return None
    units = config[0]
    (kernel, kernel_shape, kernel_init, kernel_reg), (bias, bias_shape, bias_init, bias_reg) = weights
    if (kernel_shape not in (f"[input_shape[1], self.{units}]", f"[input_shape[-1], self.{units}]")
            or bias_shape != f"[self.{units}]" or bias_reg != "None"):
        return None
    stmt = body[0]
    if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Return)
            and stmt.body[0].value is not None):
        return None
    value = stmt.body[0].value
    activation = None
    if isinstance(value, cst.Call) and builder.aliases.resolve(value.func) in DENSE_ACTIVATIONS and len(value.args) == 1:
        activation, value = _code(value.func), value.args[0].value
    kernel_attr = f"self.{kernel}_" if kernel in _LAYER_ATTRIBUTES else f"self.{kernel}"
    bias_attr = f"self.{bias}_" if bias in _LAYER_ATTRIBUTES else f"self.{bias}"
    product = None
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add) and _code(value.right) == bias_attr:
        product = value.left
    elif (isinstance(value, cst.Call) and builder.aliases.resolve(value.func) == "nn.bias_add" and len(value.args) == 2
          and _code(value.args[1].value) == bias_attr):
        product = value.args[0].value
    if not (isinstance(product, cst.Call) and builder.aliases.resolve(product.func) == "matmul"
            and [_code(a.value) for a in product.args] == [inputs, kernel_attr] and all(a.keyword is None for a in product.args)):
        return None
    args = [units]
    if activation is not None:
        args.append(f"activation={activation}")
    args.append(f"kernel_initializer={kernel_init}")
    if bias_init != "'zeros'":
        args.append(f"bias_initializer={bias_init}")
    if kernel_reg != "None":
        args.append(f"kernel_regularizer={kernel_reg}")
    return ", ".join(args)


def _weight_statement(builder: ModelBuilder, stmt: cst.BaseStatement) -> bool:
    return get_variable_call(stmt, builder.aliases) is not None or variable_call(stmt, builder.aliases) is not None


def _placeholders_read(builder: ModelBuilder, func: cst.FunctionDef, body: list[cst.BaseStatement]) -> list[str]:
    """The module-level placeholders (`keep_prob = tf.placeholder(tf.float32)`) a layer
    function reads as globals, in the order it reads them."""
    if builder.module is None:
        return []
    own = {p.name.value for p in func.params.params} | {n for s in func.body.body for n in assigned_names(s)}
    made = {t.target.value for stmt in builder.module.body if isinstance(stmt, cst.SimpleStatementLine)
            for small in stmt.body if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
            and builder.aliases.resolve(small.value.func) == "placeholder"
            for t in small.targets if isinstance(t.target, cst.Name)}
    read = [n.value for s in body for n in names_read(s)]
    return list(dict.fromkeys(n for n in read if n in made and n not in own))


def _weight_inputs(builder: ModelBuilder, body: list[cst.BaseStatement]) -> set[int]:
    """Ids of the statements computing what the weights of `body` read (their shapes,
    initializers), directly or through each other: those move to `build`; the rest (an RNN
    over the input before an output weight) stay in `call`."""
    needed: set[str] = set()
    found: set[int] = set()
    for stmt in reversed(body):
        weight = get_variable_call(stmt, builder.aliases) or variable_call(stmt, builder.aliases)
        if weight is not None:
            needed |= {n.value for arg in weight[1].args for n in names_read(arg.value)}
        elif set(assigned_names(stmt)) & needed:
            found.add(id(stmt))
            needed |= {n.value for n in names_read(stmt)}
    return found


def _shape_statement(
    builder: ModelBuilder, stmt: cst.BaseStatement, inputs: str, shape_map: dict[str, str], config: dict[str, str],
) -> list[str]:
    """A statement computing a weight dimension from the input's shape, for `build`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Assign)):
        return []
    source = _shape_source(_code(stmt.body[0]), inputs, shape_map, config)
    if inputs in {n.value for n in names_read(cst.parse_statement(source + "\n"))}:
        raise Unsupported(RULE.id, builder.line(stmt), "weight shape depends on the input beyond its shape")
    return [source]


def scope_block_layers(
    builder: ModelBuilder, func: cst.FunctionDef, body: list[cst.BaseStatement],
) -> tuple[list[cst.BaseStatement], list[cst.BaseStatement]]:
    """`with tf.variable_scope("conv1"): <get_variable ...> <compute>` blocks of a model function
    (the CIFAR-10 `inference` layout) → one Layer class per block, called in its scope.

    The block's weights go to the layer's `build`, with the statements computing a weight
    dimension from the input's static shape (`dim = reshape.get_shape()[1]`); the statements
    using the weights go to `call`. Statements before them that use no weight
    (`reshape = tf.reshape(pool, [batch, -1])`) stay in the model: the layer's input is the
    one tensor of the function its statements read. Returns the body, each such block now
    `with tf.variable_scope("conv1"): conv1 = <layer>(images)`, and the Layer classes."""
    body = _with_weight_reads(builder, body)
    rebound = {n for s in body for n in bound_names(s)}
    local = {p.name.value for p in func.params.params} | rebound
    out: list[cst.BaseStatement] = []
    classes: list[cst.BaseStatement] = []
    for index, stmt in enumerate(body):
        block = scope_block(builder, stmt)
        if block is None:
            out.append(stmt)
            continue
        named = _scope_name_read(stmt, block)  # type: ignore[arg-type]
        copy_lines(stmt, named, builder.lines)
        stmt = named
        later = live_reads(body[index + 1:])
        hoisted, call, layer = _block_layer(builder, func, stmt, block, local, later, rebound)
        out.extend(hoisted)
        out.append(stmt.with_changes(body=stmt.body.with_changes(body=[call]), leading_lines=stmt.leading_lines))
        classes.append(layer)
    return out, classes


def _with_weight_reads(builder: ModelBuilder, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """Assignments right after a scope's block that compute with its weights, taken into the
    block (`with ...('local3') as scope: ... weights = ...` then `local3 = tf.nn.relu(
    tf.matmul(reshape, weights) + biases, name=scope.name)`): in the block they are the
    layer's call; outside it, only their ops' names differ."""
    out: list[cst.BaseStatement] = []
    for stmt in body:
        last = out[-1] if out else None
        if (isinstance(last, cst.With) and isinstance(last.body, cst.IndentedBlock) and scope_block(builder, last)
                and isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Assign) and not _weight_statement(builder, stmt)):
            weights = {found[0] for s in last.body.body
                       if (found := get_variable_call(s, builder.aliases) or variable_call(s, builder.aliases))}
            if statement_reads(stmt) & weights:
                merged = last.with_changes(body=last.body.with_changes(body=[*last.body.body, stmt]))
                copy_lines(last, merged, builder.lines)
                out[-1] = merged
                continue
        out.append(stmt)
    return out


def scope_block(builder: ModelBuilder, stmt: cst.BaseStatement) -> str | None:
    """The name of `with tf.variable_scope("<literal>"):` holding get_variable or tf.Variable statements."""
    if not (isinstance(stmt, cst.With) and len(stmt.items) == 1):
        return None
    alias = stmt.items[0].asname
    if alias is not None and not (isinstance(alias.name, cst.Name) and _only_name_read(stmt.body, alias.name.value)):
        return None
    call = stmt.items[0].item
    if not (isinstance(call, cst.Call) and builder.aliases.resolve(call.func) == "variable_scope"):
        return None
    args = call_args(call, VARIABLE_SCOPE_PARAMS)
    scope = args.get("name_or_scope")
    if set(args) != {"name_or_scope"} or not isinstance(scope, cst.SimpleString):
        return None
    inner = list(stmt.body.body)  # type: ignore[union-attr]
    if not any(_weight_statement(builder, s) for s in inner):
        return None
    name = str(scope.evaluated_value)
    return name if _identifier(name).isidentifier() else None


def _block_layer(
    builder: ModelBuilder, func: cst.FunctionDef, block: cst.With, scope: str, local: set[str], later: set[str],
    rebound: set[str],
) -> tuple[list[cst.BaseStatement], cst.BaseStatement, cst.ClassDef]:
    """(statements the model keeps, the layer's call statement, the Layer class) of one block."""
    inner = list(block.body.body)  # type: ignore[union-attr]
    line = builder.line(block)
    weights = {found[0] for s in inner if (found := get_variable_call(s, builder.aliases) or variable_call(s, builder.aliases))}
    uses = set(weights)  # names computed from a weight
    layer: list[cst.BaseStatement] = []
    hoisted: list[cst.BaseStatement] = []
    for stmt in inner:
        reads = statement_reads(stmt)
        if stmt not in layer and (_weight_statement(builder, stmt) or reads & uses
                                  or returned_value(stmt) is not None):
            layer.append(stmt)
            uses |= bound_names(stmt)
    # Statements giving a weight its dimension from a tensor's static shape run in `build`.
    needed = {n for s in layer for n in statement_reads(s)}
    shapes: list[cst.BaseStatement] = []
    for stmt in reversed(inner):
        if stmt not in layer and bound_names(stmt) & needed and reads_only_shapes(stmt, local):
            layer.insert(0, stmt)
            shapes.append(stmt)
            needed |= statement_reads(stmt)
    # The weights first (Keras creates them in `build`), then what computes with them.
    setup = [s for s in inner if s in shapes or _weight_statement(builder, s)]
    compute = [s for s in inner if s in layer and s not in setup]
    if {n for s in setup for n in statement_reads(s)} & {n for s in compute for n in bound_names(s)}:
        raise Unsupported(RULE.id, line, f"variable_scope {scope!r}: a weight's shape depends on a computed value")
    layer = setup + compute
    hoisted = [s for s in inner if s not in layer]
    bound_in_layer = {n for s in layer for n in bound_names(s)}
    if {n for s in hoisted for n in statement_reads(s)} & bound_in_layer:
        raise Unsupported(RULE.id, line, f"variable_scope {scope!r}: a statement without weights reads the layer's values")
    read = {n for s in layer for n in statement_reads(s)} - bound_in_layer
    # The function's other parameters configure the layer (`hidden` units); the rest it
    # reads of the function is its input tensor.
    params = [p.name.value for p in func.params.params[1:]]
    config = [p for p in params if p in read and p not in rebound]
    inputs = sorted(read & local - set(config))
    reshaped = reshaped_dims(func.body.body, set(inputs), builder.aliases) if len(inputs) > 1 else None  # type: ignore[arg-type]
    if reshaped is not None:  # `nodes` of `reshaped = tf.reshape(pool, [batch, nodes])`: read in build
        inputs = [reshaped[0]]
        layer = [cst.parse_statement(source + "\n") for source in reshaped[1]] + layer
    if len(inputs) != 1:
        raise Unsupported(RULE.id, line, f"variable_scope {scope!r} computes from {len(inputs)} tensors, not one input")
    returned = returned_value(layer[-1])
    outputs = sorted((bound_in_layer - weights) & later)
    if (bound_in_layer & weights & later) or returned is None and len(outputs) != 1 or returned is not None and outputs:
        raise Unsupported(RULE.id, line, f"variable_scope {scope!r}: the block's results are not one tensor")
    fname = f"{func.name.value}__{_identifier(scope)}"
    result = outputs[0] if returned is None else None
    body = layer if result is None else [*layer, cst.parse_statement(f"return {result}\n")]
    arguments = ", ".join([inputs[0], *config])
    synthetic = cst.parse_statement(f"def {fname}({arguments}):\n    pass\n")
    assert isinstance(synthetic, cst.FunctionDef)
    synthetic = synthetic.with_changes(body=synthetic.body.with_changes(body=body))
    record_line(builder.lines, synthetic, line)
    cls = camel(_identifier(scope))
    if cls in builder.layer_classes.values():  # another model's block of that scope: its own class
        cls = camel(func.name.value) + cls
    if cls in builder.calls_of_names() or cls in builder.layer_classes.values():
        cls = f"{cls}Layer"
    layer_class = layer_class_of(builder, synthetic, body, cls=cls)
    call = f"{fname}({arguments})"
    site = cst.parse_statement(f"return {call}\n" if result is None else f"{result} = {call}\n")
    fill_lines(site, line, builder.lines)
    return hoisted, site, layer_class.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])


def _only_name_read(body: cst.CSTNode, scope: str) -> bool:
    """Does the body read the `with ... as scope` object only as `scope.name`?"""
    named = {id(n.value) for n in walk(body) if isinstance(n, cst.Attribute) and n.attr.value == "name"}
    return all(id(n) in named for n in names_read(body) if n.value == scope)


def _scope_name_read(block: cst.With, name: str) -> cst.With:
    """The block without its `as scope`, each `scope.name` read spelled as the scope's name."""
    alias = block.items[0].asname
    if alias is None:
        return block
    scope = alias.name.value  # type: ignore[union-attr]

    class Literal(cst.CSTTransformer):
        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            if isinstance(original.value, cst.Name) and original.value.value == scope and original.attr.value == "name":
                return cst.SimpleString(repr(name))
            return updated

    body = block.body.visit(Literal())
    item = block.items[0].with_changes(asname=None)
    return block.with_changes(items=[item], body=body)


@dataclass
class ModelScope:
    """A variable_scope of a model function: its name and default regularizer (source)."""

    name: str | None
    regularizer: str | None
    bindings: dict[str, cst.BaseExpression]  # local names bound to regularizer calls
    regularized: set[str]  # layer attributes given a regularizer, shared by nested scopes
    # Unnamed layers taken so far per TF1 default name, in a scope every call opens anew: TF1
    # restarts `dense`, `dense_1`, ... there on each entry, so the names hold across calls.
    # None where the names would run on from call to call.
    defaults: dict[str, int] | None = None

    def inner(self, name: str | None, regularizer: str | None) -> ModelScope:
        return ModelScope(name, regularizer, self.bindings, self.regularized)


# Names a Keras Model already uses; a layer attribute must not shadow them.
_MODEL_ATTRIBUTES = frozenset({
    "input", "output", "layers", "weights", "variables", "name", "losses", "metrics",
    "trainable", "optimizer", "built", "dtype", "call", "build",
})


class LayerCalls(cst.CSTTransformer):
    """Inside a model function: `dense(x, 10)` / `tf.layers.dense(x, 10)` → `self.<layer>(x)`."""

    def __init__(
        self, builder: ModelBuilder, attrs: dict[str, str], scope: ModelScope, loop_names: set[str] | None = None,
    ) -> None:
        super().__init__()
        self.builder = builder
        self.attrs = attrs
        self.scope = scope.name
        self.regularizer = scope.regularizer
        self.regularized = scope.regularized
        self.used_in_scope = 0
        self.defaults = scope.defaults
        # In a loop body: the names the function uses, and (attribute, loop variable) per layer.
        self.loop_names = loop_names
        self.loop_layers: list[tuple[str, str]] = []

    def _fresh(self, base: str) -> str:
        attr, n = base, 1
        while attr in self.attrs or attr in _MODEL_ATTRIBUTES:
            attr, n = f"{base}_{n}", n + 1
        return attr

    def _scope_regularized(self, original: cst.Call, path: str | None, call: cst.Call) -> cst.Call:
        """The call with its scope's regularizer on every variable that sets none, as TF1's
        `get_variable` applied it (an explicit `None` takes the scope's too)."""
        spec = LAYER_SPECS.get(path or "")
        if self.regularizer is None or (spec is not None and not spec.weights):
            return call
        keywords = {p: spec.keywords.get(p, p) for p in spec.positional if p.endswith("_regularizer")} if spec else {}
        per_variable = {p for p, k in keywords.items() if k != "activity_regularizer"}
        if spec is None or {keywords[p] for p in per_variable} != _WEIGHT_REGULARIZERS:
            raise Unsupported(RULE.id, self.builder.line(original), "a variable_scope regularizer over a layer Keras regularizes otherwise")
        bound = call_args(call, ("inputs", *spec.positional))
        kept = [a for a in call.args if not (a.keyword is not None and a.keyword.value in per_variable
                                            and isinstance(a.value, cst.Name) and a.value.value == "None")]
        added = [cst.Arg(keyword=cst.Name(p), value=cst.parse_expression(self.regularizer))
                 for p in sorted(per_variable)
                 if p not in bound or (isinstance(bound[p], cst.Name) and bound[p].value == "None")]
        return call.with_changes(args=[*kept, *added])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        aliases = self.builder.aliases
        path = aliases.resolve(func)
        if isinstance(func, cst.Name) and func.value in self.builder.layer_classes:
            cls = self.builder.layer_classes[func.value]
        elif path in LAYERS:
            cls = f"tf.keras.layers.{LAYERS[path]}"  # type: ignore[index]
        else:
            return updated
        if not updated.args:
            raise Unsupported(RULE.id, self.builder.line(original), "layer call without an input")
        updated = self._scope_regularized(original, path, updated)
        inputs, *rest = updated.args
        name_keyword = "scope" if (path or "").startswith("contrib.") else "name"
        name_arg = next((a for a in rest if a.keyword is not None and a.keyword.value == name_keyword), None)
        scoped = self.builder.scope_params.get(func.value) if isinstance(func, cst.Name) else None
        if scoped is not None:
            position, param = scoped
            positional = [a for a in updated.args if a.keyword is None]
            name_arg = next((a for a in rest if a.keyword is not None and a.keyword.value == param),
                            positional[position] if len(positional) > position else None)
            if name_arg is None or not (isinstance(name_arg.value, cst.SimpleString) or self.loop_names is not None):
                raise Unsupported(RULE.id, self.builder.line(original), "variable_scope name is not a literal")
            rest = [a for a in rest if a is not name_arg]
        keras_class = cls.rpartition(".")[2]
        computed_name: str | None = None  # a name the loop computes per iteration
        if self.loop_names is not None:
            if name_arg is not None and not isinstance(name_arg.value, cst.SimpleString):
                computed_name = _code(name_arg.value)
            elif not (path in LAYER_SPECS and not LAYER_SPECS[path].weights and name_arg is None):
                # One name for every iteration: TF1 shares or refuses it, a list would not.
                raise Unsupported(RULE.id, self.builder.line(original), "layer in a loop without a per-iteration name")
            stem = _name_stem(name_arg.value) if computed_name else None
            attr = self._fresh(stem or _snake(keras_class))
        elif name_arg is not None and isinstance(name_arg.value, cst.SimpleString):
            attr = str(name_arg.value.evaluated_value)
        elif name_arg is None and path in LAYER_SPECS and not LAYER_SPECS[path].weights:
            attr = self._fresh(_snake(keras_class))  # no variables: its name is not observable
        elif self.scope is not None:
            attr = self.scope
            self.used_in_scope += 1
            if self.used_in_scope > 1:
                raise Unsupported(RULE.id, self.builder.line(original), "two layers in one variable_scope")
        elif self.defaults is not None and path in LAYER_SPECS:
            base = LAYER_SPECS[path].scope or _snake(keras_class)
            taken = self.defaults.get(base, 0)
            self.defaults[base] = taken + 1
            attr = f"{base}_{taken}" if taken else base
        elif name_arg is None and self.loop_names is None and (default := self.builder.default_name(path)):
            attr = default
        else:
            raise Unsupported(RULE.id, self.builder.line(original), "layer outside a named variable_scope")
        layer_name = attr  # TF1's scope name, kept where the attribute takes another
        if attr in _MODEL_ATTRIBUTES:
            attr = f"{attr}_layer"
        # `layer1-conv1`: the attribute spells it as a name, the layer keeps TF1's; two scopes
        # one spelling would make share one layer
        attr = _identifier(attr)
        if not attr.isidentifier() or self.builder.spelled.setdefault(attr, layer_name) != layer_name:
            raise Unsupported(RULE.id, self.builder.line(original), f"scope name {layer_name!r} is not an identifier")
        ctor_args = [a for a in rest if not (a.keyword is not None and a.keyword.value in ("name", "reuse"))]
        ctor = ", ".join(_code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in ctor_args)
        arguments = _code(inputs.with_changes(comma=cst.MaybeSentinel.DEFAULT))
        flag: str | None = None  # a `training` value that may be a tensor
        if path in LAYERS:
            keras = keras_layer(path, updated)
            if keras is None:
                raise Unsupported(LAYERS_RULE.id, self.builder.line(original), f"tf.{path} with an argument Keras has no form for")
            ctor = ", ".join(a for a in keras.arguments if not a.startswith("name="))
            arguments = keras.call_arguments
            training = call_args(updated, ("inputs", *LAYER_SPECS[path].positional)).get("training")
            if training is not None and not (isinstance(training, cst.Name) and training.value in ("True", "False")):
                flag, arguments = _code(training), keras.inputs
            if any(k.endswith("_regularizer") for k in keras.keywords):
                self.regularized.add(attr)
        named = computed_name or repr(layer_name)
        if self.loop_names is not None and computed_name is None:
            named = ""  # a variable-free layer per iteration, named by Keras
        ctor = ", ".join(part for part in (ctor, f"name={named}" if named else "") if part)
        if attr in self.attrs and self.loop_names is None and isinstance(func, cst.Name) and (
            func.value in self.builder.fresh_layers
        ):
            # A name_scope used again is made unique (`conv1_1`): its tf.Variables are new ones.
            raise Unsupported(RULE.id, self.builder.line(original), f"{func.value} called twice under the name {attr!r}")
        self.attrs.setdefault(attr, f"{cls}({ctor})")
        if path in LAYERS:
            self.builder.fixed(original, f"tf.{path} → {cls}", LAYERS_RULE.id)
        layer = f"self.{attr}"
        if self.loop_names is not None:
            layer = attr if attr not in self.loop_names else f"{attr}_layer"
            self.loop_layers.append((attr, layer))
        if flag is not None:
            # Keras layers test `training` as a Python bool; a tensor (a fed flag) picks one of
            # two calls, and tf.cast also takes a Python bool.
            return cst.parse_expression(
                f"tf.cond(tf.cast({flag}, tf.bool), lambda: {layer}({arguments}, training=True), "
                f"lambda: {layer}({arguments}, training=False))"
            )
        return cst.parse_expression(f"{layer}({arguments})")


def _snake(name: str) -> str:
    """`MaxPooling2D` → `max_pooling2d`, as Keras names its layers."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def _name_stem(expr: cst.BaseExpression) -> str | None:
    """The literal start of a computed name (`"hidden%d" % i`, `f"conv{i}"`) as an identifier."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.left, cst.SimpleString):
        text = str(expr.left.evaluated_value).split("%")[0]
    elif isinstance(expr, cst.FormattedString) and expr.parts and isinstance(expr.parts[0], cst.FormattedStringText):
        text = expr.parts[0].value
    else:
        return None
    stem = re.sub(r"\W+", "_", text).strip("_")
    return stem if stem.isidentifier() else None
