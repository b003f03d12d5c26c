"""Functions that create variables under variable_scope → Keras Layer and Model classes (TF104).

A *layer function* creates its weights with `tf.get_variable` and computes with them: it becomes
a `tf.keras.layers.Layer` (weights in `build`, body in `call`). A *model function* calls layer
functions (or `tf.layers.*`) under `tf.variable_scope(name)` blocks: it becomes a
`tf.keras.Model` holding one layer instance per scope, created once under the function's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .api_table import LAYER_SPECS, LAYERS, REGULARIZERS
from .codegen import ReplaceNames, fill_lines, is_docstring, record_line
from .graph import Scope, call_args, calls_by_callee, memoised_walk, names_read
from .imports import Aliases
from .layer_seeds import LayerSeeds, SeedPlan
from .loss_collection import regularizers_at_calls
from .op_seeds import is_random, uncounted
from .report import Finding, Unsupported
from .rules.variable_scope import RULE
from .scope_reads import (
    bound_names,
    call_scopes,
    caller_constants,
    calls_in_statements,
    constant_arguments,
    free_reads,
    module_constants,
    target_names,
)
from .scoped_layers import (
    VARIABLE_SCOPE_PARAMS,
    LayerCalls,
    ModelScope,
    camel,
    get_variable_call,
    layer_class_of,
    scope_block,
    scope_block_layers,
    with_call_body,
)
from .variable_layers import assigned_names, variable_layer
from .walk import walk


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


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

    def line(self, node: cst.CSTNode) -> int:
        return self.lines.get(id(node), 0)

    def instances(self) -> list[str]:
        """Every model instance the conversion created."""
        return list(dict.fromkeys([*self.model_instances.values(), *self.call_instances.values()]))

    def fixed(self, node: cst.CSTNode, message: str, rule: str = RULE.id) -> None:
        self.findings.append(Finding(rule, self.line(node), 0, message, "fixed"))

    def _creates_variables(self, func: cst.FunctionDef) -> bool:
        def creates(call: cst.Call) -> bool:
            path = self.aliases.resolve(call.func) or ""
            return (path == "get_variable" or path in LAYERS
                    or isinstance(call.func, cst.Name) and call.func.value in self.layer_classes)

        # a `with tf.variable_scope("conv1"):` block of tf.Variable weights is a layer too
        blocks = isinstance(func.body, cst.IndentedBlock) and any(scope_block(self, s) for s in func.body.body)
        return blocks or any(creates(node) for node in walk(func) if isinstance(node, cst.Call))

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
            record_line(self.lines, undocumented, self.line(func))
            converted = self.convert_function(undocumented, scope)
            assert converted is not None and isinstance(converted[0], cst.ClassDef)
            cls = converted[0]
            first, *rest = cls.body.body  # type: ignore[union-attr]
            members = [body[0], first.with_changes(leading_lines=[cst.EmptyLine(indent=False), *first.leading_lines]), *rest]
            return [cls.with_changes(body=cls.body.with_changes(body=members)), *converted[1:]]
        params = [p.name.value for p in func.params.params]
        inner = list(body[0].body.body) if self.body_scope_param(body, params) else body  # type: ignore[attr-defined]
        if any(get_variable_call(s, self.aliases) for s in inner) or self._variable_layer(func):
            return [layer_class_of(self, func, body)]
        scoped = self._scoped_layer(func, body)
        if scoped is not None:
            return scoped
        return self._model_class(func, body)

    def _variable_layer(self, func: cst.FunctionDef) -> bool:
        return variable_layer(func, self.aliases)

    def note_library_function(
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
        self.findings.append(Finding(RULE.id, self.line(func), 0, f"{name} is not called in this module: {how}", "info"))

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
            get_variable_call(s, self.aliases) for s in inner
        ):
            return None
        params = [p.name.value for p in func.params.params]
        reuse = args.get("reuse")
        reuse_param = reuse.value if isinstance(reuse, cst.Name) and reuse.value in params[1:] else None
        if len(params) - (reuse_param is not None) != 1 and self.shared is None:
            raise Unsupported(RULE.id, self.line(func), f"{func.name.value}: a scoped layer function takes only its input")
        name, scope_name = func.name.value, str(scope.evaluated_value)
        kept = func.params.with_changes(params=[p for p in func.params.params if p.name.value != reuse_param])
        renamed = func.with_changes(params=kept)
        record_line(self.lines, renamed, self.line(func))
        layer = layer_class_of(self, renamed, inner)
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

    def body_scope_param(
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

    # ------------------------------------------------------------ models
    def _model_class(self, func: cst.FunctionDef, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        attrs: dict[str, str] = {}  # attribute -> constructor source
        name = func.name.value
        outer_name: str | None = None
        # A function of a class shared by its calls takes no scope name from them.
        scope_param = self.body_scope_param(body, [p.name.value for p in func.params.params]) if self.shared is None else None
        if scope_param is not None:
            # `with tf.variable_scope(scope):` from a parameter: each call names its own model.
            body = list(body[0].body.body)  # type: ignore[attr-defined]
            if scope_param in {n.value for s in body for n in names_read(s)}:
                raise Unsupported(RULE.id, self.line(func), f"{name} reads its scope name {scope_param}")
        regularizers = self._regularizer_bindings(body)
        outer = ModelScope(None, None, regularizers, set())
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
        body, block_layers = scope_block_layers(self, func, body)
        if any(self.aliases.resolve(c.func) in ("get_variable", "Variable") for c in calls_in_statements(body)):
            raise Unsupported(RULE.id, self.line(func), f"{name} creates variables outside a layer function")
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
        cls = camel(name)
        if cls == name:
            cls = f"{cls}Model"
        config, built, given = self._layer_dependencies(func, body, attrs, scope_param)
        names = [p.name.value for p in func.params.params]
        flags = [(names.index(f), f) for f in self._training_flags(body, names[1:])]
        flags += [(names.index(f), f) for f in _condition_flags(new_body, names[1:]) if (names.index(f), f) not in flags
                  and f not in {p.name.value for p in config}]
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
        model = with_call_body(source, new_body).with_changes(leading_lines=func.leading_lines)
        if self.shared is not None:
            if block_layers:
                raise Unsupported(RULE.id, self.line(func), f"{name} creates variables outside a layer function")
            self.model_instances[name] = name
            self.dropped_params[name] = (
                [(names.index(n), n) for n in config_names],
                f"configuration arguments given to the {cls} constructor: the model instance is shared",
            )
            self.shared.cls, self.shared.config = cls, config_names
            self.shared.name = outer_name or self.shared.name
            if outer.regularized:
                self.regularized_models.add(name)
            self.fixed(func, f"function {name} → Keras model {cls}, created once where it is called")
            return [model]
        if scope_param is None and self.library and config_names and not self.calls_of(name):
            # no call here says what configures it: its importers create the model
            self.fixed(func, f"function {name} → Keras model {cls}")
            self.note_library_function(func, cls, config_names)
            fill_lines(model, self.line(func), self.lines)
            return [*block_layers, model]
        if scope_param is None:
            self._seed_plan(name, cls, body, attrs, built)
            outer_name = outer_name or self.caller_scope(name)
            self.model_instances[name] = name
            model_args = ", ".join([f"{p}={v}" for p, v in given[0].items()] + ([f"name={outer_name!r}"] if outer_name else []))
            if outer_name:
                self.scoped_instances[outer_name] = name
            instances = [cst.parse_statement(f"{name} = {cls}({model_args})\n")]
            self.fixed(func, f"function {name} → Keras model {cls}, created once as {name}")
        else:
            instances = self._scoped_instances(func, cls, scope_param, given)
        if outer.regularized or any(source.split("(", 1)[0] in self.regularized_layers for source in attrs.values()):
            self.regularized_models.update(assigned_names(s)[0] for s in instances)
        self.note_library_function(func, cls, None if scope_param is None else [], instance=scope_param is None)
        fill_lines(model, self.line(func), self.lines)  # the layers' constructors report at the def
        for instance in instances:  # and so does the configuration a call gave the model
            fill_lines(instance, self.line(func), self.lines)
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
        configuring = {id(n) for c in calls_in_statements(body) if layer(c) for a in c.args[1:] for n in walk(a)}
        plain = [c for c in calls_in_statements(body) if not layer(c) and id(c) not in configuring]
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
            raise Unsupported(RULE.id, self.line(func), f"calls of {name} run under a variable_scope of their caller")
        names = [p.name.value for p in func.params.params]
        statements: list[cst.BaseStatement] = []
        for call, constants in zip(self.calls_of(name), given, strict=True):
            scope = constant_arguments(call, list(func.params.params)).get(scope_param)
            value = cst.parse_expression(scope) if scope is not None else None
            if not isinstance(value, cst.SimpleString):
                raise Unsupported(RULE.id, self.line(func), "variable_scope name is not a literal")
            scope_name = str(value.evaluated_value)
            instance = scope_name if scope_name.isidentifier() else f"{name}_{len(statements) + 1}"
            if instance in self.scoped_instances.values() or instance in self.model_instances or instance in names:
                instance = f"{name}_{len(statements) + 1}"
            self.call_instances[id(call)] = instance
            self.scoped_instances[scope_name] = instance
            arguments = ", ".join([f"{p}={v}" for p, v in constants.items()] + [f"name={scope_name!r}"])
            statements.append(cst.parse_statement(f"{instance} = {cls}({arguments})\n"))
        instances = ", ".join(self.call_instances[id(c)] for c in self.calls_of(name))
        self.fixed(func, f"function {name} → Keras model {cls}, one per variable_scope its calls name: {instances}")
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
            raise Unsupported(RULE.id, self.line(func), f"{func.name.value}: unsupported parameters")
        inputs = params[0].name.value
        rebound = {n for s in body for n in bound_names(s)}
        # A shared instance takes its configuration from the arguments of its calls.
        calls = [] if self.shared is not None else self.calls_of(func.name.value)
        constants: dict[str, str] = {}
        if self.module is not None:
            constants = memoised_walk("constants", self.module, module_constants)
        held = {} if self.module is None else memoised_walk(
            "regularizers at calls", self.module, lambda m: regularizers_at_calls(m, self.aliases, constants))
        module = self.module
        per_call = [
            constant_arguments(c, params, {**constants, **(caller_constants(module, c) if module is not None else {}),
                                           **held.get(id(c), {})})
            for c in calls
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
            reads = free_reads(cst.parse_expression(source)) & local
            if not reads:
                continue
            if inputs in reads:
                for old, new in shape_map.items():
                    source = source.replace(old, new)
                reads = free_reads(cst.parse_expression(source)) & local
                built[attr] = _code(cst.parse_expression(source).visit(
                    ReplaceNames({n: f"self.{n}" for n in reads & configurable.keys()})))
            if reads - configurable.keys():
                names = ", ".join(sorted(reads - configurable.keys()))
                raise Unsupported(RULE.id, self.line(func), f"layer {attr} is configured from {names}, computed per call")
            config |= reads
        names = [p.name.value for p in params]
        for index, call in enumerate(calls):
            positional = [a for a in call.args if a.keyword is None]
            passed = {a.keyword.value for a in call.args if a.keyword is not None}
            passed |= set(names[: len(positional)])
            constants = per_call[index] if per_call else {}
            if any(a.star for a in call.args) or (passed & config) - constants.keys():
                raise Unsupported(RULE.id, self.line(func), f"a call of {func.name.value} sets the configuration of its layers")
        given = [{n: c[n] for n in names if n in config and n in c} for c in per_call] or [{}]
        moved = [n for n in names if any(n in g for g in given)]
        if moved:
            self.dropped_params[func.name.value] = (
                [(names.index(n), n) for n in moved],
                f"{', '.join(moved)} given to the {camel(func.name.value)} constructor",
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
            raise Unsupported(RULE.id, self.line(stmt), "variable_scope name is not a literal")
        return None

    def _scope_regularizer(self, stmt: cst.With, outer: ModelScope) -> str | None:
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
        self, body: list[cst.BaseStatement], attrs: dict[str, str], scope: ModelScope, taken: set[str],
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
            out.append(stmt.visit(LayerCalls(self, attrs, scope)))
        return out

    def calls_of_names(self) -> set[str]:
        """Every name the module binds or reads (a generated class must not take one)."""
        if self.module is None:
            return set()
        return {n.value for n in walk(self.module) if isinstance(n, cst.Name)}

    def _training_flags(self, body: list[cst.BaseStatement], params: list[str]) -> list[str]:
        """The parameters passed as the `training` argument of a TF1 layer call."""
        found: list[str] = []
        for call in calls_in_statements(body):
            path = self.aliases.resolve(call.func)
            if path in LAYER_SPECS:
                flag = call_args(call, ("inputs", *LAYER_SPECS[path].positional)).get("training")
                if isinstance(flag, cst.Name) and flag.value in params and flag.value not in found:
                    found.append(flag.value)
        return found

    def _calls_layers(self, node: cst.CSTNode) -> bool:
        return any(
            (isinstance(c.func, cst.Name) and c.func.value in self.layer_classes) or self.aliases.resolve(c.func) in LAYERS
            for c in calls_in_statements([node])  # type: ignore[list-item]
        )

    def _layer_loop(self, loop: cst.For, attrs: dict[str, str], scope: ModelScope, taken: set[str]) -> cst.For:
        """`for i, units in enumerate(sizes): net = tf.layers.dense(net, units, name="h%d" % i)`:
        one list of layers per call site, built by the same loop in the constructor; the call
        walks the lists beside the loop's own values."""
        if not (loop.orelse is None) or loop.asynchronous is not None or any(
            isinstance(n, (cst.For, cst.While)) and self._calls_layers(n) for s in loop.body.body for n in walk(s)
        ):
            raise Unsupported(RULE.id, self.line(loop), "layers created in a nested, async or for/else loop")
        calls = LayerCalls(self, attrs, scope, loop_names=taken)
        body = loop.body.visit(calls)
        target, iterable = _code(loop.target), _code(loop.iter)
        for attr, _ in calls.loop_layers:
            attrs[attr] = f"[{attrs[attr]} for {target} in {iterable}]"
        layers = [name for _, name in calls.loop_layers]
        lists = [f"self.{attr}" for attr, _ in calls.loop_layers]
        if {n.value for n in target_names(loop.target)} & {n.value for n in names_read(body)}:
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


def _condition_flags(body: list[cst.BaseStatement], params: list[str]) -> list[str]:
    """The parameters an `if` of the body tests as they are (`if train: fc1 = tf.nn.dropout(...)`):
    Python values the model's call takes by keyword (Keras takes only tensors positionally)."""
    found: list[str] = []
    for node in (n for s in body for n in walk(s)):
        if isinstance(node, cst.If) and isinstance(node.test, cst.Name) and node.test.value in params:
            found.append(node.test.value)
    return list(dict.fromkeys(found))
