"""Functions that create variables under variable_scope → Keras Layer and Model classes (TF104).

A *layer function* creates its weights with `tf.get_variable` and computes with them: it becomes
a `tf.keras.layers.Layer` (weights in `build`, body in `call`). A *model function* calls layer
functions (or `tf.layers.*`) under `tf.variable_scope(name)` blocks: it becomes a
`tf.keras.Model` holding one layer instance per scope, created once under the function's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import libcst as cst

from . import codegen as cg
from .api_table import LAYER_SPECS, LAYERS, REGULARIZERS
from .codegen import ReplaceNames, copy_lines, fill_lines, is_docstring, record_line
from .graph import Scope, call_args, calls_by_callee, memoised_walk, names_read
from .imports import Aliases
from .layer_seeds import LayerSeeds, SeedPlan
from .loss_collection import regularizers_at_calls
from .op_seeds import is_random, uncounted
from .report import Finding, Unsupported
from .reshaped_dims import reshaped_dims
from .rules.get_variable import GET_VARIABLE_PARAMS, keras_initializer
from .rules.layers import RULE as LAYERS_RULE
from .rules.layers import keras_layer
from .rules.variable_scope import RULE
from .variable_layers import (
    SCOPES,
    SEED,
    assigned_names,
    variable_call,
    variable_layer,
    variable_weight,
)
from .walk import children, walk

VARIABLE_SCOPE_PARAMS = ("name_or_scope", "default_name", "values", "initializer", "regularizer",
                         "caching_device", "partitioner", "custom_getter", "reuse")
#: Keras keywords that regularize every variable of a dense or convolution layer.
_WEIGHT_REGULARIZERS = frozenset({"kernel_regularizer", "bias_regularizer"})


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def _identifier(name: str) -> str:
    """A scope name as a Python name part (`layer1-conv1` → `layer1_conv1`)."""
    return re.sub(r"\W", "_", name)


def _indented(stmts: list[cst.BaseStatement]) -> cst.IndentedBlock:
    return cst.IndentedBlock(body=stmts)


def _get_variable_call(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str, cst.Call] | None:
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


def _calls_in(stmts: list[cst.BaseStatement]) -> list[cst.Call]:
    return [node for stmt in stmts for node in walk(stmt) if isinstance(node, cst.Call)]


@dataclass
class SharedModel:
    """A function converted to a class whose one instance is made where the function is called."""

    name: str | None = None  # the instance's name: the variable_scope its variables were under
    cls: str = ""
    config: list[str] = field(default_factory=list)  # parameters the constructor takes
    classes: list[cst.BaseStatement] = field(default_factory=list)

    def constructor(self, call: cst.Call, params: list[str]) -> str | None:
        """The instance's constructor call with the configuration `call` passes; None when it
        passes some by star or not at all."""
        bound = call_args(call, tuple(params))
        if any(a.star for a in call.args) or any(p not in bound for p in self.config):
            return None
        return self.constructor_source([_code(bound[p]) for p in self.config])

    def constructor_source(self, config: list[str]) -> str:
        """The constructor call given the configuration values' sources, in `config` order."""
        args = [*config, *([f"name={self.name!r}"] if self.name else [])]
        return f"{self.cls}({', '.join(args)})"


@dataclass
class ModelBuilder:
    aliases: Aliases
    lines: dict[int, int]
    findings: list[Finding]
    layer_classes: dict[str, str] = field(default_factory=dict)  # function -> Layer class
    spelled: dict[str, str] = field(default_factory=dict)  # attribute -> the scope name it spells
    model_instances: dict[str, str] = field(default_factory=dict)  # function -> instance name
    scoped_instances: dict[str, str] = field(default_factory=dict)  # variable_scope -> instance
    # layer function -> (position, name) of the parameter naming its variable_scope
    scope_params: dict[str, tuple[int, str]] = field(default_factory=dict)
    module: cst.Module | None = None  # where the converted functions are called
    # a module no code of the program imports: a function it never calls takes its layers'
    # configuration in its model's constructor, which its importers call
    library: bool = False

    def calls_of(self, name: str) -> list[cst.Call]:
        """Every call of the plain name `name` in the module."""
        if self.module is None:
            return []
        return calls_by_callee(self.module).get(name, [])

    def caller_scope(self, name: str) -> str | None:
        """The one variable_scope every call of `name` runs under, when it is one literal name
        opened where the calls are (`with tf.variable_scope("D"): d = discriminator(x)`): TF1
        put the function's variables under it, so its model is named by it."""
        if self.module is None:
            return None
        scopes = call_scopes(self.module, self.aliases).get(name, set())
        if len(scopes) != 1:
            return None
        scope = next(iter(scopes))
        return scope if scope and "/" not in scope and scope.isidentifier() else None

    # instance -> ((position, name) of parameters its calls no longer pass, why): `reuse`, the
    # configuration its constructor took, the scope name a per-call model was given
    dropped_params: dict[str, tuple[list[tuple[int, str]], str]] = field(default_factory=dict)
    call_instances: dict[int, str] = field(default_factory=dict)  # id of a call -> the model it calls
    # layer function -> the module's placeholders its body reads: its Layer's `call` takes them
    # after the input, and every call of an instance passes them (`layer(x, keep_prob)`)
    placeholder_inputs: dict[str, list[str]] = field(default_factory=dict)
    # model instance -> (position, name) of parameters its layers take as `training`: calls pass
    # them by keyword (Keras takes only tensors positionally), a fed flag is a scalar
    flag_params: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    flag_changes: list[str] = field(default_factory=list)  # names set or dropped in flag_params, in order
    # set while converting a function whose one instance is made where it is called
    shared: SharedModel | None = None
    # model instances with a regularized layer: their `losses` hold TF1's REGULARIZATION_LOSSES
    regularized_models: set[str] = field(default_factory=set)
    # layer classes with a weight get_variable(regularizer=) made: their `losses` hold its penalty
    regularized_layers: set[str] = field(default_factory=set)
    # Layer class -> the op seeds TF1 drew for its weights, then whether the rest of its body
    # drew none the count cannot see; None: some before or among its weights
    layer_draws: dict[str, tuple[int, bool] | None] = field(default_factory=dict)
    fresh_layers: set[str] = field(default_factory=set)  # layer functions creating new variables per call
    seeds: LayerSeeds = field(default_factory=LayerSeeds)
    converting: cst.FunctionDef | None = None  # the model function being converted
    default_names: dict[str, int] = field(default_factory=dict)  # TF1 default scope -> layers so named

    def models_called(self, expr: cst.CSTNode) -> list[str]:
        """Model instances called in an expression (their variables are trained)."""
        instances = self.model_instances
        per_call = self.call_instances
        return [
            per_call[id(node)] if id(node) in per_call else instances[node.func.value]  # type: ignore[attr-defined]
            for node in walk(expr)
            if isinstance(node, cst.Call) and (
                id(node) in per_call or isinstance(node.func, cst.Name) and node.func.value in instances
            )
        ]

    def _line(self, node: cst.CSTNode) -> int:
        return self.lines.get(id(node), 0)

    def instances(self) -> list[str]:
        """Every model instance the conversion created."""
        return list(dict.fromkeys([*self.model_instances.values(), *self.call_instances.values()]))

    def _fixed(self, node: cst.CSTNode, message: str, rule: str = RULE.id) -> None:
        self.findings.append(Finding(rule, self._line(node), 0, message, "fixed"))

    def _creates_variables(self, func: cst.FunctionDef) -> bool:
        def creates(call: cst.Call) -> bool:
            path = self.aliases.resolve(call.func) or ""
            return (path == "get_variable" or path in LAYERS
                    or isinstance(call.func, cst.Name) and call.func.value in self.layer_classes)

        return any(creates(node) for node in walk(func) if isinstance(node, cst.Call))

    def convert_shared(self, func: cst.FunctionDef, instance: str, caller_scope: str | None) -> SharedModel | None:
        """A variable-creating function (a class's static method) whose calls, all in one place,
        share one Layer/Model instance made there: it takes the calls' configuration arguments
        in its constructor and is named by its variable_scope, or the callers' one."""
        if not self._creates_variables(func):
            return None
        self.shared = SharedModel(name=caller_scope)
        try:
            made = self.convert_function(func, Scope())
        finally:
            shared, self.shared = self.shared, None
        if made is None or not shared.cls:
            return None
        name = func.name.value
        self.layer_classes.pop(name, None)
        self.model_instances.pop(name, None)
        self.model_instances[instance] = instance
        self.dropped_params[instance] = self.dropped_params.pop(name, ([], ""))
        if name in self.flag_params:
            self.flag_params[instance] = self.flag_params.pop(name)
            self.flag_changes += [name, instance]
        if name in self.regularized_models:
            self.regularized_models.remove(name)
            self.regularized_models.add(instance)
        if shared.name:
            self.scoped_instances = {k: v for k, v in self.scoped_instances.items() if v != name}
            self.scoped_instances[shared.name] = instance
        shared.classes = made
        return shared

    def convert_function(self, func: cst.FunctionDef, scope: Scope) -> list[cst.BaseStatement] | None:
        """Layer/Model classes for a variable-creating function; None if it creates none."""
        if not self._creates_variables(func) and not self._variable_layer(func):
            return None
        body = list(func.body.body)  # type: ignore[union-attr]
        if body and is_docstring(body[0]) and len(body) > 1:
            # The docstring documents the class the function becomes.
            undocumented = func.with_changes(body=func.body.with_changes(body=body[1:]))
            record_line(self.lines, undocumented, self._line(func))
            converted = self.convert_function(undocumented, scope)
            assert converted is not None and isinstance(converted[0], cst.ClassDef)
            cls = converted[0]
            first, *rest = cls.body.body  # type: ignore[union-attr]
            members = [body[0], first.with_changes(leading_lines=[cst.EmptyLine(indent=False), *first.leading_lines]), *rest]
            return [cls.with_changes(body=cls.body.with_changes(body=members)), *converted[1:]]
        params = [p.name.value for p in func.params.params]
        inner = list(body[0].body.body) if self._scope_param(body, params) else body  # type: ignore[attr-defined]
        if any(_get_variable_call(s, self.aliases) for s in inner) or self._variable_layer(func):
            return [self._layer_class(func, body)]
        scoped = self._scoped_layer(func, body)
        if scoped is not None:
            return scoped
        return self._model_class(func, body)

    def _weight_statement(self, stmt: cst.BaseStatement) -> bool:
        return _get_variable_call(stmt, self.aliases) is not None or variable_call(stmt, self.aliases) is not None

    def _variable_layer(self, func: cst.FunctionDef) -> bool:
        return variable_layer(func, self.aliases)

    def _note_library_function(
        self, func: cst.FunctionDef, cls: str, config: list[str] | None = None, instance: bool = False,
    ) -> None:
        """A converted function no code here calls is a library API: the finding states how its
        importers call it now (a shared one is called where its instance is made)."""
        name = func.name.value
        if self.shared is not None or self.calls_of(name):
            return
        if instance:
            how = (f"code importing it calls {name}(...) as before, now one {cls} made at import "
                   "whose variables every call shares (TF1 made new ones per call)")
        else:
            made = f"{cls}({', '.join(config or [])})"
            how = f"code importing it creates one {made} and calls that object"
        self.findings.append(Finding(RULE.id, self._line(func), 0, f"{name} is not called in this module: {how}", "info"))

    def _scoped_layer(self, func: cst.FunctionDef, body: list[cst.BaseStatement]) -> list[cst.BaseStatement] | None:
        """`def f(x[, reuse]): with tf.variable_scope("name"[, reuse=reuse]): <get_variable ...>`:
        one layer, created once as `f` and named by the scope; every call reuses it, as TF1's
        calls with reuse did (the `reuse` argument leaves the calls)."""
        if len(body) != 1 or not isinstance(body[0], cst.With) or len(body[0].items) != 1:
            return None
        call = body[0].items[0].item
        if not (isinstance(call, cst.Call) and self.aliases.resolve(call.func) == "variable_scope"):
            return None
        args = call_args(call, VARIABLE_SCOPE_PARAMS)
        scope = args.get("name_or_scope")
        inner = list(body[0].body.body)  # type: ignore[union-attr]
        if not isinstance(scope, cst.SimpleString) or set(args) - {"name_or_scope", "reuse"} or not any(
            _get_variable_call(s, self.aliases) for s in inner
        ):
            return None
        params = [p.name.value for p in func.params.params]
        reuse = args.get("reuse")
        reuse_param = reuse.value if isinstance(reuse, cst.Name) and reuse.value in params[1:] else None
        if len(params) - (reuse_param is not None) != 1 and self.shared is None:
            raise Unsupported(RULE.id, self._line(func), f"{func.name.value}: a scoped layer function takes only its input")
        name, scope_name = func.name.value, str(scope.evaluated_value)
        kept = func.params.with_changes(params=[p for p in func.params.params if p.name.value != reuse_param])
        renamed = func.with_changes(params=kept)
        record_line(self.lines, renamed, self._line(func))
        layer = self._layer_class(renamed, inner)
        self.layer_classes.pop(name)  # called through its one instance, not built per call
        self.model_instances[name] = name
        self.scoped_instances[scope_name] = name
        if reuse_param is not None:
            self.dropped_params[name] = (
                [(params.index(reuse_param), reuse_param)], "reuse argument dropped: the layer instance is shared",
            )
        if self.shared is not None:
            config = [p for p in params[1:] if p != reuse_param]
            dropped, _ = self.dropped_params.get(name, ([], ""))
            self.dropped_params[name] = (
                [*dropped, *[(params.index(p), p) for p in config]],
                "reuse and configuration arguments dropped: the layer instance is shared",
            )
            self.shared.cls, self.shared.config, self.shared.name = layer.name.value, config, scope_name
            return [layer]
        instance = cst.parse_statement(f"{name} = {layer.name.value}(name={scope_name!r})\n")
        return [layer, instance.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])]

    # ------------------------------------------------------------ layers
    def _layer_class(self, func: cst.FunctionDef, body: list[cst.BaseStatement], cls: str | None = None) -> cst.ClassDef:
        """The Layer class of a layer function; `cls` names one made from a model's scope block."""
        params = list(func.params.params)
        if not params or func.params.star_arg not in (cst.MaybeSentinel.DEFAULT, None) or func.params.kwonly_params:
            raise Unsupported(RULE.id, self._line(func), f"{func.name.value}: unsupported parameters")
        inputs, config = params[0].name.value, params[1:]
        # tf.Variable weights take a name_scope's name too; get_variable ones do not.
        kinds = ("variable_scope",)
        if self._variable_layer(func):
            kinds = SCOPES
            self.fresh_layers.add(func.name.value)
        scope_param = self._scope_param(body, [p.name.value for p in params], kinds)
        if scope_param is not None:
            # `with tf.variable_scope(name):` over the whole body: the caller's literal names
            # the layer instance, so the parameter leaves the layer's configuration.
            body = list(body[0].body.body)  # type: ignore[attr-defined]
            position = [p.name.value for p in params].index(scope_param)
            self.scope_params[func.name.value] = (position, scope_param)
            config = [p for p in config if p.name.value != scope_param]
        config_names = [p.name.value for p in config]
        weights: list[str] = []
        build: list[str] = []
        shape_map = {f"{inputs}.shape": "input_shape", f"{inputs}.get_shape()": "input_shape",
                     f"{inputs}.get_shape().as_list()": "input_shape", f"{inputs}.shape.as_list()": "input_shape"}
        self_config = {n: f"self.{n}" for n in config_names}
        last_weight = max((i for i, s in enumerate(body) if self._weight_statement(s)), default=-1)
        weight_inputs = self._weight_inputs(body[: last_weight + 1])
        moved: list[cst.BaseStatement] = []  # shape statements, now computed in build
        draws = 0  # random initial values so far: the next one's op seed is the layer's seed plus this
        regularized = False
        for index, stmt in enumerate(body):
            found = _get_variable_call(stmt, self.aliases)
            created = variable_call(stmt, self.aliases)
            if created is not None:
                weight = variable_weight(*created, draws, self.aliases, self._line(stmt))
                draws += weight.draws
                shape = _shape_source(_code(weight.shape), inputs, shape_map, self_config)
                if inputs in _free_reads(cst.parse_expression(shape)):
                    raise Unsupported(RULE.id, self._line(stmt), "weight shape depends on the input beyond its shape")
                attr = f"{weight.target}_" if weight.target in _LAYER_ATTRIBUTES else weight.target
                build.extend(_comment_lines(stmt))
                build.append(_configured(f"self.{attr} = self.add_weight(name={weight.name}, shape={shape}, "
                                         f"initializer={weight.initializer}{weight.extra})", self_config))
                weights.append(weight.target)
                continue
            if found is None:
                if index < last_weight and id(stmt) in weight_inputs:
                    shape_lines = self._shape_statement(stmt, inputs, shape_map, self_config)
                    build.extend(shape_lines)
                    moved.extend([stmt] if shape_lines else [])
                continue
            target, call = found
            args = call_args(call, GET_VARIABLE_PARAMS)
            if "shape" not in args or "name" not in args:
                raise Unsupported(RULE.id, self._line(stmt), "get_variable in a layer function needs name and shape")
            shape = _shape_source(_code(args["shape"]), inputs, shape_map, self_config)
            if inputs in _free_reads(cst.parse_expression(shape)):
                raise Unsupported(RULE.id, self._line(stmt), "weight shape depends on the input beyond its shape")
            dtype = _code(args["dtype"]) if "dtype" in args else "tf.float32"
            init = keras_initializer(args.get("initializer"), dtype, self.aliases, self._line(stmt))
            extra = f", dtype={dtype}" if "dtype" in args else ""
            if "trainable" in args:
                extra += f", trainable={_code(args['trainable'])}"
            if "regularizer" in args and _code(args["regularizer"]) != "None":
                # TF1's penalty regularizer(v), in REGULARIZATION_LOSSES; Keras's in the layer's losses
                extra += f", regularizer={_code(args['regularizer'])}"
                regularized = True
            attr = f"{target}_" if target in _LAYER_ATTRIBUTES else target
            build.extend(_comment_lines(stmt))
            build.append(_configured(
                f"self.{attr} = self.add_weight(name={_code(args['name'])}, shape={shape}, "
                f"initializer={init}{extra})", self_config,
            ))
            weights.append(target)
        mapping = {w: f"self.{w}_" if w in _LAYER_ATTRIBUTES else f"self.{w}" for w in weights} | self_config
        call_body = [s.visit(ReplaceNames(mapping)) for s in body if not self._weight_statement(s) and s not in moved]
        read = {n.value for s in call_body for n in names_read(s)}
        kept = [s for s in moved if set(assigned_names(s)) & read]
        call_body = [s.visit(ReplaceNames(mapping)) for s in kept] + call_body
        block = cls is not None
        cls = cls or _camel(func.name.value)
        self.layer_classes[func.name.value] = cls
        fed = [] if block else self._placeholders_read(func, call_body)
        if fed:
            self.placeholder_inputs[func.name.value] = fed
            inputs = ", ".join([inputs, *fed])
        if regularized:
            self.regularized_layers.add(cls)
        config_sig = "".join(f"{_code(p.with_changes(comma=cst.MaybeSentinel.DEFAULT))}, " for p in config)

        def draws_seeds(stmts: list[cst.BaseStatement]) -> bool:
            calls = _calls_in([s for s in stmts if variable_call(s, self.aliases) is None])
            return any(is_random(c, self.aliases) or uncounted(c, self.aliases) for c in calls)

        weights_end = last_weight + 1
        self.layer_draws[cls] = None if draws_seeds(body[:weights_end]) else (draws, not draws_seeds(body[weights_end:]))
        if draws:
            if SEED in config_names:
                raise Unsupported(RULE.id, self._line(func), f"{func.name.value} takes a parameter named {SEED}")
            config_names = [*config_names, SEED]
            config_sig += f"{SEED}=None, "
        init_lines = "".join(f"        self.{n} = {n}\n" for n in config_names)
        build_lines = "".join(f"        {line}\n" for line in build)
        source = (
            f"class {cls}(tf.keras.layers.Layer):\n"
            f"    def __init__(self, {config_sig}**kwargs):\n"
            f"        super().__init__(**kwargs)\n{init_lines}\n"
            f"    def build(self, input_shape):\n{build_lines}\n"
            f"    def call(self, {inputs}):\n        pass\n"
        )
        cls_node = cst.parse_statement(source)
        assert isinstance(cls_node, cst.ClassDef)
        members = list(cls_node.body.body)  # type: ignore[union-attr]
        call_def = members[-1]
        assert isinstance(call_def, cst.FunctionDef)
        members[-1] = call_def.with_changes(body=_indented(call_body))  # type: ignore[arg-type]
        if block:
            self._fixed(func, f"variable_scope block with its weights → Keras layer {cls}")
        else:
            self._fixed(func, f"function {func.name.value} → Keras layer {cls}")
            self._note_library_function(func, cls)
        layer = cls_node.with_changes(body=cls_node.body.with_changes(body=members), leading_lines=func.leading_lines)
        fill_lines(layer, self._line(func), self.lines)  # the weights built from source report at the def
        return layer

    def _placeholders_read(self, func: cst.FunctionDef, body: list[cst.BaseStatement]) -> list[str]:
        """The module-level placeholders (`keep_prob = tf.placeholder(tf.float32)`) a layer
        function reads as globals, in the order it reads them."""
        if self.module is None:
            return []
        own = {p.name.value for p in func.params.params} | {n for s in func.body.body for n in assigned_names(s)}
        made = {t.target.value for stmt in self.module.body if isinstance(stmt, cst.SimpleStatementLine)
                for small in stmt.body if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
                and self.aliases.resolve(small.value.func) == "placeholder"
                for t in small.targets if isinstance(t.target, cst.Name)}
        read = [n.value for s in body for n in names_read(s)]
        return list(dict.fromkeys(n for n in read if n in made and n not in own))

    def _weight_inputs(self, body: list[cst.BaseStatement]) -> set[int]:
        """Ids of the statements computing what the weights of `body` read (their shapes,
        initializers), directly or through each other: those move to `build`; the rest (an RNN
        over the input before an output weight) stay in `call`."""
        needed: set[str] = set()
        found: set[int] = set()
        for stmt in reversed(body):
            weight = _get_variable_call(stmt, self.aliases) or variable_call(stmt, self.aliases)
            if weight is not None:
                needed |= {n.value for arg in weight[1].args for n in names_read(arg.value)}
            elif set(assigned_names(stmt)) & needed:
                found.add(id(stmt))
                needed |= {n.value for n in names_read(stmt)}
        return found

    def _scope_param(
        self, body: list[cst.BaseStatement], params: list[str], kinds: tuple[str, ...] = ("variable_scope",),
    ) -> str | None:
        """The parameter naming a `with tf.variable_scope(param):` (or another of `kinds`) that
        is the whole body."""
        if len(body) != 1 or not isinstance(body[0], cst.With) or len(body[0].items) != 1:
            return None
        call = body[0].items[0].item
        if (isinstance(call, cst.Call) and self.aliases.resolve(call.func) in kinds
                and len(call.args) == 1 and isinstance(call.args[0].value, cst.Name)
                and call.args[0].value.value in params[1:]):
            return call.args[0].value.value
        return None

    def _shape_statement(
        self, stmt: cst.BaseStatement, inputs: str, shape_map: dict[str, str], config: dict[str, str],
    ) -> list[str]:
        """A statement computing a weight dimension from the input's shape, for `build`."""
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Assign)):
            return []
        source = _shape_source(_code(stmt.body[0]), inputs, shape_map, config)
        if inputs in {n.value for n in names_read(cst.parse_statement(source + "\n"))}:
            raise Unsupported(RULE.id, self._line(stmt), "weight shape depends on the input beyond its shape")
        return [source]

    # ------------------------------------------------------------ models
    def _model_class(self, func: cst.FunctionDef, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        attrs: dict[str, str] = {}  # attribute -> constructor source
        name = func.name.value
        outer_name: str | None = None
        # A function of a class shared by its calls takes no scope name from them.
        scope_param = self._scope_param(body, [p.name.value for p in func.params.params]) if self.shared is None else None
        if scope_param is not None:
            # `with tf.variable_scope(scope):` from a parameter: each call names its own model.
            body = list(body[0].body.body)  # type: ignore[attr-defined]
            if scope_param in {n.value for s in body for n in names_read(s)}:
                raise Unsupported(RULE.id, self._line(func), f"{name} reads its scope name {scope_param}")
        regularizers = self._regularizer_bindings(body)
        outer = _Scope(None, None, regularizers, set())
        # A body ending in one `with variable_scope(NAME, ...)`, after statements that create no
        # variables, names the model itself.
        if (scope_param is None and body and isinstance(body[-1], cst.With)
                and not self._creates_variables(cst.Module(body[:-1]))):
            scope_name = self._scope_name(body[-1])
            if scope_name is not None:
                outer_name = scope_name
                outer = outer.inner(None, self._scope_regularizer(body[-1], outer))
                outer.defaults = {}
                body = body[:-1] + list(body[-1].body.body)  # type: ignore[union-attr]
        body, block_layers = self._scope_block_layers(func, body)
        if any(self.aliases.resolve(c.func) == "get_variable" for c in _calls_in(body)):
            raise Unsupported(RULE.id, self._line(func), f"{name} creates variables outside a layer function")
        taken = {n.value for s in body for n in names_read(s)} | {n for s in body for n in bound_names(s)}
        self.converting, self.default_names = func, {}
        try:
            new_body = self._model_statements(body, attrs, outer, taken | {p.name.value for p in func.params.params})
        finally:
            self.converting = None
        # A regularizer bound only to be a scope's default moved into the layers it regularizes.
        moved = [s for s in new_body if set(assigned_names(s)) & regularizers.keys()]
        still_read = {n.value for s in new_body if s not in moved for n in names_read(s)}
        new_body = [s for s in new_body if s not in moved or set(assigned_names(s)) & still_read]
        cls = _camel(name)
        if cls == name:
            cls = f"{cls}Model"
        config, built, given = self._layer_dependencies(func, body, attrs, scope_param)
        names = [p.name.value for p in func.params.params]
        flags = [(names.index(f), f) for f in self._training_flags(body, names[1:])]
        if flags:
            self.flag_params[name] = flags
            self.flag_changes.append(name)
        init_sig = "".join(f"{_code(p.with_changes(comma=cst.MaybeSentinel.DEFAULT))}, " for p in config)
        config_names = [p.name.value for p in config]
        read = {n.value for s in new_body for n in names_read(s)}
        kept = [n for n in config_names if n in read or any(f"self.{n}" in src for src in built.values())]
        init_lines = "".join(f"        self.{n} = {n}\n" for n in kept)
        init_lines += "".join(f"        self.{a} = {src}\n" for a, src in attrs.items() if a not in built)
        if config:
            # The layers' configuration moved to the constructor: the body reads it from self.
            new_body = [s.visit(ReplaceNames({n: f"self.{n}" for n in config_names})) for s in new_body]
        call_params = [p for p in func.params.params if p not in config and p.name.value != scope_param]
        call_params[-1] = call_params[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        params = _code(func.params.with_changes(params=call_params))
        build = ""
        if built:
            build_lines = "".join(f"        self.{a} = {src}\n" for a, src in built.items())
            build = f"    def build(self, input_shape):\n{build_lines}\n"
        source = (
            f"class {cls}(tf.keras.Model):\n"
            f"    def __init__(self, {init_sig}**kwargs):\n"
            f"        super().__init__(**kwargs)\n{init_lines}\n"
            f"{build}"
            f"    def call(self, {params}):\n        pass\n"
        )
        cls_node = cst.parse_statement(source)
        assert isinstance(cls_node, cst.ClassDef)
        members = list(cls_node.body.body)  # type: ignore[union-attr]
        call_def = members[-1]
        assert isinstance(call_def, cst.FunctionDef)
        members[-1] = call_def.with_changes(body=_indented(new_body))
        model = cls_node.with_changes(body=cls_node.body.with_changes(body=members), leading_lines=func.leading_lines)
        if self.shared is not None:
            if block_layers:
                raise Unsupported(RULE.id, self._line(func), f"{name} creates variables outside a layer function")
            self.model_instances[name] = name
            self.dropped_params[name] = (
                [(names.index(n), n) for n in config_names],
                f"configuration arguments given to the {cls} constructor: the model instance is shared",
            )
            self.shared.cls, self.shared.config = cls, config_names
            self.shared.name = outer_name or self.shared.name
            if outer.regularized:
                self.regularized_models.add(name)
            self._fixed(func, f"function {name} → Keras model {cls}, created once where it is called")
            return [model]
        if scope_param is None and self.library and config_names and not self.calls_of(name):
            # no call here says what configures it: its importers create the model
            self._fixed(func, f"function {name} → Keras model {cls}")
            self._note_library_function(func, cls, config_names)
            fill_lines(model, self._line(func), self.lines)
            return [*block_layers, model]
        if scope_param is None:
            self._seed_plan(name, cls, body, attrs, built)
            outer_name = outer_name or self.caller_scope(name)
            self.model_instances[name] = name
            model_args = ", ".join([f"{p}={v}" for p, v in given[0].items()] + ([f"name={outer_name!r}"] if outer_name else []))
            if outer_name:
                self.scoped_instances[outer_name] = name
            instances = [cst.parse_statement(f"{name} = {cls}({model_args})\n")]
            self._fixed(func, f"function {name} → Keras model {cls}, created once as {name}")
        else:
            instances = self._scoped_instances(func, cls, scope_param, given)
        if outer.regularized or any(source.split("(", 1)[0] in self.regularized_layers for source in attrs.values()):
            self.regularized_models.update(assigned_names(s)[0] for s in instances)
        self._note_library_function(func, cls, None if scope_param is None else [], instance=scope_param is None)
        fill_lines(model, self._line(func), self.lines)  # the layers' constructors report at the def
        for instance in instances:  # and so does the configuration a call gave the model
            fill_lines(instance, self._line(func), self.lines)
        return [
            *block_layers,
            model,
            *[s.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()] if i == 0 else []) for i, s in enumerate(instances)],
        ]

    def default_name(self, path: str | None) -> str | None:
        """TF1's name for a layer its call does not name: its variable scope's default made unique
        (`fully_connected`, `fully_connected_1`), fixed when the model function runs once and
        makes every such layer of the module."""
        spec = LAYER_SPECS.get(path or "")
        func = self.converting
        if spec is None or not spec.scope or func is None or self.module is None or len(self.calls_of(func.name.value)) != 1:
            return None
        inside = {id(c) for c in walk(func) if isinstance(c, cst.Call)}
        if any(isinstance(c, cst.Call) and self.aliases.resolve(c.func) == path and id(c) not in inside
               for c in walk(self.module)):
            return None
        taken = self.default_names.get(spec.scope, 0)
        self.default_names[spec.scope] = taken + 1
        return f"{spec.scope}_{taken}" if taken else spec.scope

    def _seed_plan(
        self, name: str, cls: str, body: list[cst.BaseStatement], attrs: dict[str, str], built: dict[str, str],
    ) -> None:
        """The op seeds each layer of a model created once draws, in the order TF1 built them:
        known for a straight body (no loops, no layers built from the input's shape) whose only
        draws are its layers'."""
        if built or any(isinstance(n, (cst.For, cst.While)) for s in body for n in walk(s)):
            return
        def layer(call: cst.Call) -> bool:
            return isinstance(call.func, cst.Name) and call.func.value in self.layer_classes or (
                self.aliases.resolve(call.func) in LAYERS)

        # A layer's configuration (its initializers) is the layer's own draw; its input is not.
        configuring = {id(n) for c in _calls_in(body) if layer(c) for a in c.args[1:] for n in walk(a)}
        plain = [c for c in _calls_in(body) if not layer(c) and id(c) not in configuring]
        if any(is_random(c, self.aliases) or uncounted(c, self.aliases) for c in plain):
            return
        weightless = {spec.keras for spec in LAYER_SPECS.values() if not spec.weights} - {"Dropout"}
        layers: list[tuple[str, tuple[int, bool] | None]] = []
        for attr, source in attrs.items():
            head = source.split("(", 1)[0]
            keras = head.removeprefix("tf.keras.layers.")
            layers.append((attr, (0, True) if keras in weightless and keras != head else self.layer_draws.get(head)))
        self.seeds.plans[name] = SeedPlan(cls, layers)

    def _scoped_instances(
        self, func: cst.FunctionDef, cls: str, scope_param: str, given: list[dict[str, str]],
    ) -> list[cst.BaseStatement]:
        """One model per call of a function scoped by its parameter, named by the call's scope."""
        name = func.name.value
        if self.module is not None and call_scopes(self.module, self.aliases).get(name, set()) - {""}:
            # TF1 named the variables `<caller scope>/<call's scope>/...`: no Keras name holds a "/".
            raise Unsupported(RULE.id, self._line(func), f"calls of {name} run under a variable_scope of their caller")
        names = [p.name.value for p in func.params.params]
        statements: list[cst.BaseStatement] = []
        for call, constants in zip(self.calls_of(name), given, strict=True):
            scope = _constant_arguments(call, list(func.params.params)).get(scope_param)
            value = cst.parse_expression(scope) if scope is not None else None
            if not isinstance(value, cst.SimpleString):
                raise Unsupported(RULE.id, self._line(func), "variable_scope name is not a literal")
            scope_name = str(value.evaluated_value)
            instance = scope_name if scope_name.isidentifier() else f"{name}_{len(statements) + 1}"
            if instance in self.scoped_instances.values() or instance in self.model_instances or instance in names:
                instance = f"{name}_{len(statements) + 1}"
            self.call_instances[id(call)] = instance
            self.scoped_instances[scope_name] = instance
            arguments = ", ".join([f"{p}={v}" for p, v in constants.items()] + [f"name={scope_name!r}"])
            statements.append(cst.parse_statement(f"{instance} = {cls}({arguments})\n"))
        instances = ", ".join(self.call_instances[id(c)] for c in self.calls_of(name))
        self._fixed(func, f"function {name} → Keras model {cls}, one per variable_scope its calls name: {instances}")
        dropped, why = self.dropped_params.get(name, ([], ""))
        self.dropped_params[name] = ([*dropped, (names.index(scope_param), scope_param)], why or "scope name given to the model")
        return statements

    def _layer_dependencies(
        self, func: cst.FunctionDef, body: list[cst.BaseStatement], attrs: dict[str, str], scope_param: str | None,
    ) -> tuple[list[cst.Param], dict[str, str], list[dict[str, str]]]:
        """Split the layer constructors by what they read of the function.

        A constructor reading a parameter the body never rebinds, defaulted (`code_size=3`) or
        given a constant by the function's one call (`build(x, [64, 32])`), gets it from the
        model's constructor; one reading the input's shape (`inputs.shape[1]`) is built in
        `build(input_shape)`; one reading anything else computed in the body cannot be created
        once; a function scoped by its parameter makes one model per call, each given that
        call's constants. Returns the parameters that move to `__init__`, the layers built in
        `build` (attribute -> constructor source with `input_shape`) and per instance the
        constants its call gives (parameter -> source), which it is created with.
        """
        params = list(func.params.params)
        if not params or func.params.star_arg not in (cst.MaybeSentinel.DEFAULT, None) or func.params.kwonly_params:
            raise Unsupported(RULE.id, self._line(func), f"{func.name.value}: unsupported parameters")
        inputs = params[0].name.value
        rebound = {n for s in body for n in bound_names(s)}
        # A shared instance takes its configuration from the arguments of its calls.
        calls = [] if self.shared is not None else self.calls_of(func.name.value)
        constants: dict[str, str] = {}
        if self.module is not None:
            constants = memoised_walk("constants", self.module, module_constants)
        held = {} if self.module is None else memoised_walk(
            "regularizers at calls", self.module, lambda m: regularizers_at_calls(m, self.aliases, constants))
        per_call = [
            _constant_arguments(c, params, {**constants, **held.get(id(c), {})}) for c in calls
        ] if scope_param or len(calls) == 1 else []
        given_everywhere = set.intersection(*(set(c) for c in per_call)) if per_call else set()
        # A library function no code here calls: its importers give the configuration.
        api = self.library and self.shared is None and not calls
        configurable = {
            p.name.value: p for p in params[1:]
            if (p.default is not None or self.shared is not None or api or p.name.value in given_everywhere)
            and p.name.value not in rebound
        }
        local = {p.name.value for p in params} | rebound
        shape_map = {f"{inputs}.get_shape().as_list()": "input_shape", f"{inputs}.get_shape()": "input_shape",
                     f"{inputs}.shape": "input_shape"}
        config: set[str] = set()
        built: dict[str, str] = {}
        for attr, source in attrs.items():
            reads = _free_reads(cst.parse_expression(source)) & local
            if not reads:
                continue
            if inputs in reads:
                for old, new in shape_map.items():
                    source = source.replace(old, new)
                reads = _free_reads(cst.parse_expression(source)) & local
                built[attr] = _code(cst.parse_expression(source).visit(
                    ReplaceNames({n: f"self.{n}" for n in reads & configurable.keys()})))
            if reads - configurable.keys():
                names = ", ".join(sorted(reads - configurable.keys()))
                raise Unsupported(RULE.id, self._line(func), f"layer {attr} is configured from {names}, computed per call")
            config |= reads
        names = [p.name.value for p in params]
        for index, call in enumerate(calls):
            positional = [a for a in call.args if a.keyword is None]
            passed = {a.keyword.value for a in call.args if a.keyword is not None}
            passed |= set(names[: len(positional)])
            constants = per_call[index] if per_call else {}
            if any(a.star for a in call.args) or (passed & config) - constants.keys():
                raise Unsupported(RULE.id, self._line(func), f"a call of {func.name.value} sets the configuration of its layers")
        given = [{n: c[n] for n in names if n in config and n in c} for c in per_call] or [{}]
        moved = [n for n in names if any(n in g for g in given)]
        if moved:
            self.dropped_params[func.name.value] = (
                [(names.index(n), n) for n in moved],
                f"{', '.join(moved)} given to the {_camel(func.name.value)} constructor",
            )
        return [p for p in params if p.name.value in config], built, given

    def _scope_name(self, stmt: cst.With) -> str | None:
        if len(stmt.items) != 1:
            return None
        call = stmt.items[0].item
        if isinstance(call, cst.Call) and self.aliases.resolve(call.func) == "variable_scope" and call.args:
            name = call.args[0].value
            if isinstance(name, cst.SimpleString):
                return str(name.evaluated_value)
            raise Unsupported(RULE.id, self._line(stmt), "variable_scope name is not a literal")
        return None

    def _scope_regularizer(self, stmt: cst.With, outer: _Scope) -> str | None:
        """The source of a `variable_scope`'s `regularizer=`, or the enclosing scope's; a local
        name bound to a regularizer call stands for that call (each layer gets its own)."""
        call = stmt.items[0].item
        assert isinstance(call, cst.Call)
        value = call_args(call, VARIABLE_SCOPE_PARAMS).get("regularizer")
        if value is None:
            return outer.regularizer
        if isinstance(value, cst.Name) and value.value in outer.bindings:
            return _code(outer.bindings[value.value])
        return _code(value)

    def _regularizer_bindings(self, body: list[cst.BaseStatement]) -> dict[str, cst.BaseExpression]:
        """Names the function binds once, to a TF1 regularizer call."""
        bound = [n for s in body for n in bound_names(s)]
        found: dict[str, cst.BaseExpression] = {}
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
            if (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and isinstance(small.value, cst.Call)
                    and self.aliases.resolve(small.value.func) in REGULARIZERS
                    and bound.count(small.targets[0].target.value) == 1):
                found[small.targets[0].target.value] = small.value
        return found

    def _model_statements(
        self, body: list[cst.BaseStatement], attrs: dict[str, str], scope: _Scope, taken: set[str],
    ) -> list[cst.BaseStatement]:
        """The call body: scopes unwrapped, layer calls → `self.<layer>(x)`."""
        out: list[cst.BaseStatement] = []
        for stmt in body:
            if isinstance(stmt, cst.For) and self._calls_layers(stmt):
                out.append(self._layer_loop(stmt, attrs, scope, taken))
                continue
            if isinstance(stmt, cst.With):
                inner_scope = self._scope_name(stmt)
                if inner_scope is not None:
                    inner_scopes = scope.inner(inner_scope, self._scope_regularizer(stmt, scope))
                    inner = self._model_statements(list(stmt.body.body), attrs, inner_scopes, taken)  # type: ignore[union-attr]
                    if inner:
                        comments = list(stmt.leading_lines) + list(inner[0].leading_lines)
                        trailing = stmt.body.header.comment  # type: ignore[union-attr]
                        if trailing is not None:
                            comments.append(cst.EmptyLine(comment=trailing))
                        inner[0] = inner[0].with_changes(leading_lines=comments)
                    out.extend(inner)
                    continue
            out.append(stmt.visit(_LayerCalls(self, attrs, scope)))
        return out

    def _scope_block_layers(
        self, func: cst.FunctionDef, body: list[cst.BaseStatement],
    ) -> tuple[list[cst.BaseStatement], list[cst.BaseStatement]]:
        """`with tf.variable_scope("conv1"): <get_variable ...> <compute>` blocks of a model function
        (the CIFAR-10 `inference` layout) → one Layer class per block, called in its scope.

        The block's weights go to the layer's `build`, with the statements computing a weight
        dimension from the input's static shape (`dim = reshape.get_shape()[1]`); the statements
        using the weights go to `call`. Statements before them that use no weight
        (`reshape = tf.reshape(pool, [batch, -1])`) stay in the model: the layer's input is the
        one tensor of the function its statements read. Returns the body, each such block now
        `with tf.variable_scope("conv1"): conv1 = <layer>(images)`, and the Layer classes."""
        rebound = {n for s in body for n in bound_names(s)}
        local = {p.name.value for p in func.params.params} | rebound
        out: list[cst.BaseStatement] = []
        classes: list[cst.BaseStatement] = []
        for index, stmt in enumerate(body):
            block = self._scope_block(stmt)
            if block is None:
                out.append(stmt)
                continue
            named = _scope_name_read(stmt, block)  # type: ignore[arg-type]
            copy_lines(stmt, named, self.lines)
            stmt = named
            later = _live_reads(body[index + 1:])
            hoisted, call, layer = self._block_layer(func, stmt, block, local, later, rebound)
            out.extend(hoisted)
            out.append(stmt.with_changes(body=stmt.body.with_changes(body=[call]), leading_lines=stmt.leading_lines))
            classes.append(layer)
        return out, classes

    def _scope_block(self, stmt: cst.BaseStatement) -> str | None:
        """The name of `with tf.variable_scope("<literal>"):` holding get_variable statements."""
        if not (isinstance(stmt, cst.With) and len(stmt.items) == 1):
            return None
        alias = stmt.items[0].asname
        if alias is not None and not (isinstance(alias.name, cst.Name) and _only_name_read(stmt.body, alias.name.value)):
            return None
        call = stmt.items[0].item
        if not (isinstance(call, cst.Call) and self.aliases.resolve(call.func) == "variable_scope"):
            return None
        args = call_args(call, VARIABLE_SCOPE_PARAMS)
        scope = args.get("name_or_scope")
        if set(args) != {"name_or_scope"} or not isinstance(scope, cst.SimpleString):
            return None
        inner = list(stmt.body.body)  # type: ignore[union-attr]
        if not any(_get_variable_call(s, self.aliases) for s in inner):
            return None
        name = str(scope.evaluated_value)
        return name if _identifier(name).isidentifier() else None

    def _block_layer(
        self, func: cst.FunctionDef, block: cst.With, scope: str, local: set[str], later: set[str], rebound: set[str],
    ) -> tuple[list[cst.BaseStatement], cst.BaseStatement, cst.ClassDef]:
        """(statements the model keeps, the layer's call statement, the Layer class) of one block."""
        inner = list(block.body.body)  # type: ignore[union-attr]
        line = self._line(block)
        weights = {found[0] for s in inner if (found := _get_variable_call(s, self.aliases))}
        uses = set(weights)  # names computed from a weight
        layer: list[cst.BaseStatement] = []
        hoisted: list[cst.BaseStatement] = []
        for stmt in inner:
            reads = _reads(stmt)
            if stmt not in layer and (_get_variable_call(stmt, self.aliases) or reads & uses
                                      or _returned_value(stmt) is not None):
                layer.append(stmt)
                uses |= bound_names(stmt)
        # Statements giving a weight its dimension from a tensor's static shape run in `build`.
        needed = {n for s in layer for n in _reads(s)}
        shapes: list[cst.BaseStatement] = []
        for stmt in reversed(inner):
            if stmt not in layer and bound_names(stmt) & needed and _reads_only_shapes(stmt, local):
                layer.insert(0, stmt)
                shapes.append(stmt)
                needed |= _reads(stmt)
        # The weights first (Keras creates them in `build`), then what computes with them.
        setup = [s for s in inner if s in shapes or _get_variable_call(s, self.aliases)]
        compute = [s for s in inner if s in layer and s not in setup]
        if {n for s in setup for n in _reads(s)} & {n for s in compute for n in bound_names(s)}:
            raise Unsupported(RULE.id, line, f"variable_scope {scope!r}: a weight's shape depends on a computed value")
        layer = setup + compute
        hoisted = [s for s in inner if s not in layer]
        bound_in_layer = {n for s in layer for n in bound_names(s)}
        if {n for s in hoisted for n in _reads(s)} & bound_in_layer:
            raise Unsupported(RULE.id, line, f"variable_scope {scope!r}: a statement without weights reads the layer's values")
        read = {n for s in layer for n in _reads(s)} - bound_in_layer
        # The function's other parameters configure the layer (`hidden` units); the rest it
        # reads of the function is its input tensor.
        params = [p.name.value for p in func.params.params[1:]]
        config = [p for p in params if p in read and p not in rebound]
        inputs = sorted(read & local - set(config))
        reshaped = reshaped_dims(func.body.body, set(inputs), self.aliases) if len(inputs) > 1 else None  # type: ignore[arg-type]
        if reshaped is not None:  # `nodes` of `reshaped = tf.reshape(pool, [batch, nodes])`: read in build
            inputs = [reshaped[0]]
            layer = [cst.parse_statement(source + "\n") for source in reshaped[1]] + layer
        if len(inputs) != 1:
            raise Unsupported(RULE.id, line, f"variable_scope {scope!r} computes from {len(inputs)} tensors, not one input")
        returned = _returned_value(layer[-1])
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
        record_line(self.lines, synthetic, line)
        cls = _camel(_identifier(scope))
        if cls in self.layer_classes.values():  # another model's block of that scope: its own class
            cls = _camel(func.name.value) + cls
        if cls in self.calls_of_names() or cls in self.layer_classes.values():
            cls = f"{cls}Layer"
        layer_class = self._layer_class(synthetic, body, cls=cls)
        call = f"{fname}({arguments})"
        site = cst.parse_statement(f"return {call}\n" if result is None else f"{result} = {call}\n")
        fill_lines(site, line, self.lines)
        return hoisted, site, layer_class.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])

    def calls_of_names(self) -> set[str]:
        """Every name the module binds or reads (a generated class must not take one)."""
        if self.module is None:
            return set()
        return {n.value for n in walk(self.module) if isinstance(n, cst.Name)}

    def _training_flags(self, body: list[cst.BaseStatement], params: list[str]) -> list[str]:
        """The parameters passed as the `training` argument of a TF1 layer call."""
        found: list[str] = []
        for call in _calls_in(body):
            path = self.aliases.resolve(call.func)
            if path in LAYER_SPECS:
                flag = call_args(call, ("inputs", *LAYER_SPECS[path].positional)).get("training")
                if isinstance(flag, cst.Name) and flag.value in params and flag.value not in found:
                    found.append(flag.value)
        return found

    def _calls_layers(self, node: cst.CSTNode) -> bool:
        return any(
            (isinstance(c.func, cst.Name) and c.func.value in self.layer_classes) or self.aliases.resolve(c.func) in LAYERS
            for c in _calls_in([node])  # type: ignore[list-item]
        )

    def _layer_loop(self, loop: cst.For, attrs: dict[str, str], scope: _Scope, taken: set[str]) -> cst.For:
        """`for i, units in enumerate(sizes): net = tf.layers.dense(net, units, name="h%d" % i)`:
        one list of layers per call site, built by the same loop in the constructor; the call
        walks the lists beside the loop's own values."""
        if not (loop.orelse is None) or loop.asynchronous is not None or any(
            isinstance(n, (cst.For, cst.While)) and self._calls_layers(n) for s in loop.body.body for n in walk(s)
        ):
            raise Unsupported(RULE.id, self._line(loop), "layers created in a nested, async or for/else loop")
        calls = _LayerCalls(self, attrs, scope, loop_names=taken)
        body = loop.body.visit(calls)
        target, iterable = _code(loop.target), _code(loop.iter)
        for attr, _ in calls.loop_layers:
            attrs[attr] = f"[{attrs[attr]} for {target} in {iterable}]"
        layers = [name for _, name in calls.loop_layers]
        lists = [f"self.{attr}" for attr, _ in calls.loop_layers]
        if {n.value for n in _target_names(loop.target)} & {n.value for n in names_read(body)}:
            if isinstance(loop.target, cst.Tuple) and not loop.target.lpar:
                target = f"({target})"
            header = f"for {target}, {', '.join(layers)} in zip({iterable}, {', '.join(lists)}):"
        elif len(lists) == 1:
            header = f"for {layers[0]} in {lists[0]}:"
        else:
            header = f"for {', '.join(layers)} in zip({', '.join(lists)}):"
        new = cst.parse_statement(f"{header}\n    pass\n")
        assert isinstance(new, cst.For)
        return new.with_changes(body=body, leading_lines=loop.leading_lines)


@dataclass
class _Scope:
    """A variable_scope of a model function: its name and default regularizer (source)."""

    name: str | None
    regularizer: str | None
    bindings: dict[str, cst.BaseExpression]  # local names bound to regularizer calls
    regularized: set[str]  # layer attributes given a regularizer, shared by nested scopes
    # Unnamed layers taken so far per TF1 default name, in a scope every call opens anew: TF1
    # restarts `dense`, `dense_1`, ... there on each entry, so the names hold across calls.
    # None where the names would run on from call to call.
    defaults: dict[str, int] | None = None

    def inner(self, name: str | None, regularizer: str | None) -> _Scope:
        return _Scope(name, regularizer, self.bindings, self.regularized)


def call_scopes(module: cst.Module, aliases: Aliases) -> dict[str, set[str]]:
    """For each plain name called in the module, the variable_scope paths its calls run under
    ("" outside any), counting only scopes opened in the same function or at the top level."""
    return memoised_walk("call_scopes", module, lambda node: _call_scopes(node, aliases))


def _call_scopes(module: cst.Module, aliases: Aliases) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    stack: list[str | None] = []  # a scope name, or None for an unknown one

    def scope_of(node: cst.With) -> str | None | bool:
        calls = [i.item for i in node.items if isinstance(i.item, cst.Call)
                 and aliases.resolve(i.item.func) == "variable_scope"]
        if not calls:
            return False
        args = calls[0].args
        literal = len(calls) == 1 and len(args) == 1 and isinstance(args[0].value, cst.SimpleString)
        return str(args[0].value.evaluated_value) if literal else None  # type: ignore[union-attr]

    def visit(node: cst.CSTNode) -> None:
        opened = False
        if isinstance(node, cst.With):
            scope = scope_of(node)
            if scope is not False:
                stack.append(scope)  # type: ignore[arg-type]
                opened = True
        elif isinstance(node, cst.FunctionDef):
            stack.append("")  # a function's body starts outside the caller's scopes
            opened = True
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            last = max((i for i, s in enumerate(stack) if s == ""), default=-1)
            inner = stack[last + 1:]
            path = "?" if None in inner else "/".join(s for s in inner if s)
            found.setdefault(node.func.value, set()).add(path)
        for child in children(node):
            visit(child)
        if opened:
            stack.pop()

    visit(module)
    return found


# Names a Keras Layer already uses; a weight attribute must not shadow them.
_LAYER_ATTRIBUTES = frozenset({
    "weights", "trainable_weights", "non_trainable_weights", "variables", "trainable_variables",
    "non_trainable_variables", "name", "dtype", "built", "losses", "input", "output", "trainable",
    "input_spec", "path", "metrics", "supports_masking", "dtype_policy",
})


def bound_names(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds: assignment, loop and `with ... as` targets."""
    found: set[str] = set()
    for node in walk(stmt):
        target = _BINDING_TARGETS.get(type(node))
        if target is not None:
            found.update(n.value for n in _target_names(getattr(node, target)))
    return found


#: Nodes that bind names, and the field holding their target.
_BINDING_TARGETS: dict[type, str] = {
    cst.AssignTarget: "target", cst.AugAssign: "target", cst.For: "target", cst.AsName: "name",
}


def _target_names(target: cst.CSTNode) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _target_names(e.value)]
    return []


def _free_reads(expr: cst.BaseExpression) -> set[str]:
    """Names an expression reads from outside it (a comprehension's own targets are not)."""
    own = {n.value for c in walk(expr) if isinstance(c, cst.CompFor) for n in _target_names(c.target)}
    return {n.value for n in names_read(expr)} - own


def _constant_arguments(
    call: cst.Call, params: list[cst.Param], constants: dict[str, str] | None = None,
) -> dict[str, str]:
    """Parameter -> source of each argument of `call` that is a literal (numbers, strings,
    lists and tuples of them, True/False/None), or a name `constants` gives one for: a value
    the model can be built with once."""
    names = [p.name.value for p in params]
    found: dict[str, str] = {}
    for index, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (names[index] if index < len(names) else None)
        if name is None or arg.star:
            continue
        if isinstance(arg.value, cst.Name) and arg.value.value in (constants or {}):
            found[name] = (constants or {})[arg.value.value]
        elif _is_literal(arg.value):
            found[name] = _code(arg.value)
    return found


def _is_literal(expr: cst.BaseExpression) -> bool:
    return all(n.value in ("True", "False", "None") for n in names_read(expr)) and all(
        isinstance(n, _LITERAL_NODES) for n in walk(expr)
    )


def module_constants(module: cst.Module) -> dict[str, str]:
    """Name -> literal source of each name the module binds once, at its top level, to a literal
    (`K = 4`, `N, D = 300, 6`) and nowhere else: where it is read, it holds that literal. A list
    that something may change in place (`sizes.append(4)`, `sizes[0] = 8`) is no constant."""
    bindings: dict[str, int] = {}
    changed: set[str] = set()  # names whose value a method or an item assignment may change
    for node in walk(module):
        if isinstance(node, (cst.Attribute, cst.Subscript)) and isinstance(node.value, cst.Name):
            changed.add(node.value.value)
        targets: list[cst.CSTNode] = []
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.AsName)):
            targets = [node.name]
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            targets = [item.name for item in node.names]
        for target in targets:
            for name in walk(target):
                if isinstance(name, cst.Name):
                    bindings[name.value] = bindings.get(name.value, 0) + 1
    found: dict[str, str] = {}
    for stmt in module.body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)
                and len(stmt.body[0].targets) == 1):
            continue
        target, value = stmt.body[0].targets[0].target, stmt.body[0].value
        pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = [(target, value)]
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)):
            if len(target.elements) != len(value.elements) or any(
                isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)
            ):
                continue
            pairs = [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
        for name, literal in pairs:
            mutable = any(isinstance(n, cst.List) for n in walk(literal))
            if (isinstance(name, cst.Name) and bindings.get(name.value) == 1 and _is_literal(literal)
                    and not (mutable and name.value in changed)):
                found[name.value] = _code(literal)
    return found


_LITERAL_NODES = (
    cst.Integer, cst.Float, cst.SimpleString, cst.Name, cst.List, cst.Tuple, cst.Element, cst.Comma,
    cst.UnaryOperation, cst.Minus, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftParen,
    cst.RightParen, cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.Newline, cst.EmptyLine,
    cst.TrailingWhitespace,
)


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


def _returned_value(stmt: cst.BaseStatement) -> cst.BaseExpression | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Return):
        return stmt.body[0].value
    return None


def _reads(stmt: cst.CSTNode) -> set[str]:
    """Names a statement reads (names_read less what it only assigns)."""
    targets: set[int] = set()

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            targets.update(id(n) for n in _target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            targets.update(id(n) for n in _target_names(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            targets.update(id(n) for n in _target_names(node.name))

    stmt.visit(Targets())
    return {n.value for n in names_read(stmt) if id(n) not in targets}


def _live_reads(stmts: list[cst.BaseStatement]) -> set[str]:
    """Names the statements read before binding them (what an earlier statement hands on)."""
    found: set[str] = set()
    rebound: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, cst.With):
            found |= {n for item in stmt.items for n in _reads(item)} - rebound
            found |= _live_reads(list(stmt.body.body)) - rebound  # type: ignore[arg-type]
        else:
            found |= _reads(stmt) - rebound
        rebound |= bound_names(stmt)
    return found


_SHAPE_READS = frozenset({"shape", "get_shape"})


def _reads_only_shapes(stmt: cst.BaseStatement, local: set[str]) -> bool:
    """An assignment reading the function's tensors only through `.shape` / `.get_shape()`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return False
    shape_owners = {
        id(n.value) for n in walk(stmt) if isinstance(n, cst.Attribute) and n.attr.value in _SHAPE_READS
    }
    read = [n for n in names_read(stmt.body[0].value) if n.value in local]
    return bool(read) and all(id(n) in shape_owners for n in read)


# Names a Keras Model already uses; a layer attribute must not shadow them.
_MODEL_ATTRIBUTES = frozenset({
    "input", "output", "layers", "weights", "variables", "name", "losses", "metrics",
    "trainable", "optimizer", "built", "dtype", "call", "build",
})


class _LayerCalls(cst.CSTTransformer):
    """Inside a model function: `dense(x, 10)` / `tf.layers.dense(x, 10)` → `self.<layer>(x)`."""

    def __init__(
        self, builder: ModelBuilder, attrs: dict[str, str], scope: _Scope, loop_names: set[str] | None = None,
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
            raise Unsupported(RULE.id, self.builder._line(original), "a variable_scope regularizer over a layer Keras regularizes otherwise")
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
            raise Unsupported(RULE.id, self.builder._line(original), "layer call without an input")
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
                raise Unsupported(RULE.id, self.builder._line(original), "variable_scope name is not a literal")
            rest = [a for a in rest if a is not name_arg]
        keras_class = cls.rpartition(".")[2]
        computed_name: str | None = None  # a name the loop computes per iteration
        if self.loop_names is not None:
            if name_arg is not None and not isinstance(name_arg.value, cst.SimpleString):
                computed_name = _code(name_arg.value)
            elif not (path in LAYER_SPECS and not LAYER_SPECS[path].weights and name_arg is None):
                # One name for every iteration: TF1 shares or refuses it, a list would not.
                raise Unsupported(RULE.id, self.builder._line(original), "layer in a loop without a per-iteration name")
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
                raise Unsupported(RULE.id, self.builder._line(original), "two layers in one variable_scope")
        elif self.defaults is not None and path in LAYER_SPECS:
            base = LAYER_SPECS[path].scope or _snake(keras_class)
            taken = self.defaults.get(base, 0)
            self.defaults[base] = taken + 1
            attr = f"{base}_{taken}" if taken else base
        elif name_arg is None and self.loop_names is None and (default := self.builder.default_name(path)):
            attr = default
        else:
            raise Unsupported(RULE.id, self.builder._line(original), "layer outside a named variable_scope")
        layer_name = attr  # TF1's scope name, kept where the attribute takes another
        if attr in _MODEL_ATTRIBUTES:
            attr = f"{attr}_layer"
        # `layer1-conv1`: the attribute spells it as a name, the layer keeps TF1's; two scopes
        # one spelling would make share one layer
        attr = _identifier(attr)
        if not attr.isidentifier() or self.builder.spelled.setdefault(attr, layer_name) != layer_name:
            raise Unsupported(RULE.id, self.builder._line(original), f"scope name {layer_name!r} is not an identifier")
        ctor_args = [a for a in rest if not (a.keyword is not None and a.keyword.value in ("name", "reuse"))]
        ctor = ", ".join(_code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in ctor_args)
        arguments = _code(inputs.with_changes(comma=cst.MaybeSentinel.DEFAULT))
        flag: str | None = None  # a `training` value that may be a tensor
        if path in LAYERS:
            keras = keras_layer(path, updated)
            if keras is None:
                raise Unsupported(LAYERS_RULE.id, self.builder._line(original), f"tf.{path} with an argument Keras has no form for")
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
            raise Unsupported(RULE.id, self.builder._line(original), f"{func.value} called twice under the name {attr!r}")
        self.attrs.setdefault(attr, f"{cls}({ctor})")
        if path in LAYERS:
            self.builder._fixed(original, f"tf.{path} → {cls}", LAYERS_RULE.id)
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


def _comment_lines(stmt: cst.BaseStatement) -> list[str]:
    """The comments of a weight's statement, as lines for the `build` that replaces it."""
    lines = [*cg.comments(stmt.leading_lines), *cg.inner_comments(stmt)]
    return [line.comment.value for line in lines if line.comment is not None]
