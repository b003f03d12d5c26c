"""Node classification: what each top-level assignment builds (placeholder, variable,
dataset, optimizer, train op, summary, layer, tensor...), as a node of the graph model.
"""

from __future__ import annotations

from functools import partial

import libcst as cst

from .. import feeds as feed_vars
from ..api_table import INITIALIZERS, LAYERS, OPTIMIZERS, QUEUE_INPUTS, REGULARIZERS, SCHEDULES
from ..codegen import code
from ..graph import INSIDE, Node, call_args, calls_in, memoised_walk, names_read, refers_to_tf
from ..graph_classes import PREFIX as SELF_PREFIX
from ..report import Unsupported
from ..rules.data import RULE as DATA_RULE
from ..rules.gradients import GRADIENTS_PARAMS
from ..rules.layers import has_weights, keras_layer_inline
from ..rules.optimizers import RULE as OPTIMIZER_RULE
from ..rules.rnn_cells import cell_name
from ..rules.rnn_layers import KERAS_CELLS
from ..rules.session import INIT_CALLS, SESSION_CALLS
from ..rules.session import RULE as SESSION_RULE
from ..rules.variable_scope import RULE as SCOPE_RULE
from ..step_names import what_is_trained
from ..variable_factories import DICT, LIST
from ..variable_layers import regularized_variable
from . import (
    contexts,
    dataset_inputs,
    layer_instances,
    moving_averages,
    optimizer_objects,
    run_sites,
    savers,
    summary_ops,
)
from .foreign_calls import check_foreign_calls
from .state import TRAIN_METHODS, Item, MoveState
from .steps import makes_updates

# Keras objects a TF1 graph may build by name and then call, as it would a model instance.
KERAS_OBJECTS = ("keras.layers.", "keras.Sequential", "keras.models.Sequential")
#: Why a Keras optimizer given a computed beta or rho can part from TF1 late in a run.
#: Ops that only run others: ``sess.run`` returns None for them, and a tf.function may not
#: return them (TF raises TypeError for an Operation).
VALUELESS_OPS = frozenset({"group", "no_op"})
MINIMIZE_PARAMS = ("loss", "global_step", "var_list")
APPLY_PARAMS = ("grads_and_vars", "global_step", "name")
PLACEHOLDER_PARAMS = ("dtype", "shape", "name")
DATA_ITERATORS = ("data.make_one_shot_iterator", "data.make_initializable_iterator")
_LITERAL_DTYPES: dict[type, str] = {cst.Integer: "tf.int32", cst.Float: "tf.float32"}


def target_names(move: MoveState, target: cst.BaseAssignTargetExpression) -> tuple[str, ...] | None:
    if isinstance(target, cst.Name):
        return (target.value,)
    if isinstance(target, (cst.Tuple, cst.List)) and all(
        isinstance(e.value, cst.Name) for e in target.elements
    ):
        return tuple(e.value.value for e in target.elements)  # type: ignore[attr-defined]
    return None


def classify(move: MoveState, assign: cst.Assign, stmt: cst.SimpleStatementLine, item: Item) -> Node | None:
    """Add the node an assignment defines to the scope; None for plain Python."""
    value = assign.value
    if run_sites.contains_run_site(move, value) or feed_vars.dict_feed_keys(value, partial(is_placeholder, move)):
        return None
    deps = move.scope.deps_of(value)
    is_graph = bool(deps) or refers_to_tf(value, move.aliases) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
        and value.func.value in move.variable_factories
    )
    if not is_graph:
        return None
    names = target_names(move, assign.targets[0].target)
    if names is None:
        raise Unsupported(SESSION_RULE.id, item.line, "graph value assigned to an attribute or subscript")
    check_foreign_calls(move, value, item)
    kind, info = kind_of(move, value, deps, item)
    if kind == "summary":
        node = summary_ops.summary_node(move, names, stmt, value, item.names)
        move.scope.add(node)
        return node
    if kind == "tensor" and contexts.reads_regularization(move, value):
        info = {**info, "regularization": True}
    node = Node(names, kind, stmt, value, len(move.scope.nodes), deps, info=info)
    if kind == "variable":
        node.trainable = info.get("trainable", True)  # type: ignore[assignment]
    if info.get("keras") and len(names) == 1 and has_weights(str(info["keras"])):
        # A Keras layer or model built by name: the graph's calls of it train its weights.
        assert move.models is not None
        move.models.model_instances[names[0]] = names[0]
    if kind == "variable" and any(regularized_variable(c, move.aliases) for c in calls_in(value)):
        # a helper's 'losses' entry as the weight's regularizer (loss_collection.py) is a layer's only
        raise Unsupported(SCOPE_RULE.id, item.line, f"{names[0]}: its penalty in the 'losses' collection belongs to no layer")
    if kind == "variable" and any(d.kind in INSIDE or d.kind == "placeholder" for d in deps):
        raise Unsupported(SESSION_RULE.id, item.line, f"{names[0]} is created from a computed tensor")
    if kind == "tensor" and any(d.kind == "schedule" for d in deps):
        # A Keras schedule is an object to call with the step, not a tensor to compute with.
        raise Unsupported(OPTIMIZER_RULE.id, item.line, f"{names[0]} computes with a decayed rate")
    factory = next((c.func.value for c in calls_in(value) if isinstance(c.func, cst.Name)
                    and c.func.value in move.variable_factories), None)
    if kind in INSIDE and factory is not None:
        raise Unsupported(SCOPE_RULE.id, item.line, f"{names[0]} calls {factory}, which creates variables, on computed tensors")
    assert move.models is not None
    unowned = next((c.func.value for c in calls_in(value) if isinstance(c.func, cst.Name)
                    and c.func.value in move.models.layer_classes and c.func.value not in move.models.model_instances
                    and id(c) not in move.models.call_instances), None)
    if unowned is not None:
        # A layer class is built inside the models that call it; called here, it is made here.
        node.info["layer_instances"] = layer_instances.scoped_layer_instances(move, value, names[0], item)
    if kind != "collection" and isinstance(value, (cst.ListComp, cst.GeneratorExp, cst.Subscript)) and any(
        d.kind == "collection" for d in deps
    ):
        raise Unsupported(SCOPE_RULE.id, item.line, f"{names[0]} selects variables from a collection")
    if kind == "optimizer" and any(d.kind in INSIDE and not optimizer_objects.rate_of_variables(d) for d in deps):
        raise Unsupported(SESSION_RULE.id, item.line, f"{names[0]} is created from a computed tensor")
    check_rebinding(move, node, item)
    move.scope.add(node)
    return node


def check_rebinding(move: MoveState, node: Node, item: Item) -> None:
    """A name bound to an object created once (a variable) and bound again, while a step
    reads the first: steps replay their statements by name, so they would read the second."""
    for name in node.names:
        old = move.scope.lookup(name)
        if old is None or old.kind in INSIDE or old.kind in ("placeholder", "session", "init"):
            continue
        readers = [n for n in (*move.scope.nodes, node) if n.kind in INSIDE and old in n.deps]
        if readers:
            raise Unsupported(SESSION_RULE.id, item.line, f"{name} is bound again while a graph tensor reads its earlier value")


def is_placeholder(move: MoveState, name: str) -> bool:
    node = move.scope.lookup(name)
    return node is not None and node.kind == "placeholder"


def kind_of(move: MoveState, value: cst.BaseExpression, deps: list[Node], item: Item) -> tuple[str, dict]:
    queued = next((path for c in calls_in(value) if (path := move.aliases.resolve(c.func) or "") in QUEUE_INPUTS
                   or path.startswith("queue.")), None)
    if queued is not None:
        # A queue is state shared by every run; replayed in each step function it would be
        # made anew per call (tf.data is its TF2 form, a change of design).
        raise Unsupported(DATA_RULE.id, item.line, f"tf.{queued}: queue-based input has no TF2 form here")
    if isinstance(value, (cst.List, cst.Tuple)) and value.elements and all(
        isinstance(e.value, cst.Name) and move.scope.lookup(e.value.value) is not None
        and move.scope.lookup(e.value.value).kind == "variable"  # type: ignore[union-attr]
        for e in value.elements
    ):
        return "varlist", {}
    container = variable_container(move, value)
    if container is not None:
        return "variable", {"container": container}
    scope = scope_filter(move, value)
    if scope is not None:
        return "collection", {"scope": scope}
    if makes_cells(move, value):
        return "object", {}
    if not isinstance(value, cst.Call):
        return "tensor", {}
    path = move.aliases.resolve(value.func)
    if path in SESSION_CALLS:
        return "session", {}
    if path == "train.Coordinator":
        return "object", {}  # a plain object TF2 keeps: without queue runners it only keeps a stop flag
    if path == "Graph" and not value.args:
        return "graph", {}
    data = data_kind(move, value, path, item)
    if data is not None:
        return data
    if path == "placeholder":
        return "placeholder", {"args": call_args(value, PLACEHOLDER_PARAMS)}
    if path == "placeholder_with_default":
        return "placeholder", with_default(move, value, item)
    if path == "get_variable":
        return "variable", {"trainable": _trainable(value)}
    if path in ("Variable", "train.get_or_create_global_step"):
        return "variable", {"trainable": _trainable(value) and path == "Variable"}
    if path in OPTIMIZERS:
        return "optimizer", {"path": path, "call": value}
    if path == "train.ExponentialMovingAverage":
        return "averages", {}
    averages = moving_averages.restore_map(move, value)
    if averages is not None:
        return "restore_map", {"averages": averages}
    averages = moving_averages.is_apply(move, value)
    if averages is not None:
        return "tensor", {"valueless": True, "averages": averages}
    if isinstance(value.func, cst.Name) and value.func.value in move.variable_factories:
        structure = move.variable_factories[value.func.value]
        if structure is None:
            raise Unsupported(SCOPE_RULE.id, item.line, f"{value.func.value}() returns its variables in a "
                              "structure the rewrite does not follow")
        return "variable", {"trainable": True, **({"container": structure} if structure in (DICT, LIST) else {})}
    if path in INIT_CALLS or path == "group" and value.args and all(
            isinstance(a.value, cst.Call) and move.aliases.resolve(a.value.func) in INIT_CALLS for a in value.args):
        return "init", {}  # `tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())`
    if path == "gradients":
        return "gradients", {"args": call_args(value, GRADIENTS_PARAMS)}
    if path in SCHEDULES:
        step_param = "x" if "x" in SCHEDULES[path][1] else "global_step"
        return "schedule", {"path": path, "step": call_args(value, SCHEDULES[path][1]).get(step_param)}
    if path == "trainable_variables":
        return "collection", {"scope": None}
    if contexts.is_update_ops(move, value):
        return "updates", {}
    if path in REGULARIZERS:
        return "object", {}
    if path == "get_collection" and value.args and move.aliases.resolve(value.args[0].value) in (
        "GraphKeys.TRAINABLE_VARIABLES", "GraphKeys.GLOBAL_VARIABLES",
    ):
        scope_arg = call_args(value, ("key", "scope")).get("scope")
        if scope_arg is not None and not isinstance(scope_arg, cst.SimpleString):
            raise Unsupported(SCOPE_RULE.id, item.line, "collection scope is not a literal")
        return "collection", {"scope": scope_arg.evaluated_value if scope_arg is not None else None}
    if path in INITIALIZERS or (path or "").startswith("keras.initializers."):
        return "object", {}
    if summary_ops.summary_entries(move, value) is not None:
        return "summary", {}
    if path == "summary.FileWriter":
        return "writer", {}
    if path == "train.Saver":
        return "saver", {"objects": savers.saved_objects(move, value, item.line)}
    if path in LAYERS:
        return "tensor", {"layer": path}
    inline = keras_layer_inline(value, move.aliases.resolve)
    if inline is not None:
        return "tensor", {"layer": f"keras.layers.{inline.keras}"}
    if (path or "").startswith(KERAS_OBJECTS):
        return "object", {"keras": path}
    if cell_name(path or "") in KERAS_CELLS:
        return "object", {}
    if path == "nn.dynamic_rnn":
        return "tensor", {"rnn": True}
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value in TRAIN_METHODS:
        return train_kind(move, value, func, item)
    pairs = _unzipped(value)
    if pairs is not None and isinstance(pairs.func, cst.Attribute) and pairs.func.attr.value == "compute_gradients":
        kind, info = train_kind(move, pairs, pairs.func, item)
        return kind, {**info, "unzipped": True}
    if path in VALUELESS_OPS:
        return "tensor", {"valueless": True, **grouped_ops(move, value, path)}
    return "tensor", {}


def grouped_ops(move: MoveState, value: cst.Call, path: str) -> dict[str, object]:
    """`tf.group(train_step, ema_op)` of ops the graph names: a step runs each of them in the
    order they were built (TF1 set none), so the group itself leaves the step."""
    args = [a for a in value.args if a.keyword is None]
    if path != "group" or not args or any(a.star or not isinstance(a.value, cst.Name) for a in args):
        return {}
    nodes = [move.scope.lookup(a.value.value) for a in args]  # type: ignore[attr-defined]
    if any(n is None or not makes_updates(move, n) for n in nodes):
        return {}
    return {"runs": [n.name for n in nodes if n is not None]}


def makes_cells(move: MoveState, value: cst.BaseExpression) -> bool:
    """`[BasicLSTMCell(n) for _ in range(k)]`, `[LSTMCell(8), GRUCell(5)]`: the cells of a
    MultiRNNCell, made once with it."""
    if isinstance(value, cst.ListComp):
        made = [value.elt]
    elif isinstance(value, (cst.List, cst.Tuple)):
        made = [e.value for e in value.elements]
    else:
        return False
    return bool(made) and all(
        isinstance(e, cst.Call) and cell_name(move.aliases.resolve(e.func) or "") in KERAS_CELLS for e in made
    )


def scope_filter(move: MoveState, value: cst.BaseExpression) -> str | None:
    """The variable_scope picked by `[v for v in <all trainable> if v.name.startswith("scope")]`,
    when the prefix names exactly one scope whose layer or model the rewrite created."""
    if not (isinstance(value, cst.ListComp) and isinstance(value.elt, cst.Name)
            and isinstance(value.for_in.target, cst.Name) and value.for_in.inner_for_in is None
            and len(value.for_in.ifs) == 1 and value.for_in.target.value == value.elt.value):
        return None
    source = value.for_in.iter
    node = move.scope.lookup(source.value) if isinstance(source, cst.Name) else None
    every = (node is not None and node.kind == "collection" and node.info["scope"] is None) or (
        isinstance(source, cst.Call) and move.aliases.resolve(source.func) == "trainable_variables" and not source.args
    )
    test = value.for_in.ifs[0].test
    if not (every and isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute)
            and test.func.attr.value == "startswith" and len(test.args) == 1
            and isinstance(test.args[0].value, cst.SimpleString)
            and code(test.func.value) == f"{value.elt.value}.name"):
        return None
    prefix = str(test.args[0].value.evaluated_value)
    assert move.models is not None
    matching = [s for s in move.models.scoped_instances if f"{s}/".startswith(prefix)]
    if len(matching) != 1 or not (prefix in (matching[0], f"{matching[0]}/")):
        return None
    return matching[0]


def data_kind(move: MoveState, call: cst.Call, path: str | None, item: Item) -> tuple[str, dict] | None:
    """tf.data: datasets and their iterators are created once; each `get_next()` is a
    batch the run site pulls, like a fed placeholder."""
    func = call.func
    method = func.attr.value if isinstance(func, cst.Attribute) else ""
    receiver = func.value if isinstance(func, cst.Attribute) else None
    source = move.scope.lookup(receiver.value) if isinstance(receiver, cst.Name) else None
    if path in DATA_ITERATORS or (method in ("make_one_shot_iterator", "make_initializable_iterator")
                                  and is_dataset(move, receiver)):
        dataset = call.args[0].value if path in DATA_ITERATORS else receiver
        made = move.scope.lookup(dataset.value) if isinstance(dataset, cst.Name) else None
        if method == "make_initializable_iterator" or path == "data.make_initializable_iterator":
            # Each run of its initializer starts a Python iteration over the dataset, made
            # anew from the values fed to its placeholders.
            if made is None or made.kind != "dataset":
                raise Unsupported(DATA_RULE.id, item.line, "an initializable iterator over an unnamed dataset")
            return "iterator", {"dataset": dataset, "initializable": True}
        if made is not None and made.info.get("placeholders"):
            raise Unsupported(DATA_RULE.id, item.line, "a one-shot iterator over a dataset built from placeholders")
        return "iterator", {"dataset": dataset}
    if method == "get_next" and source is not None and source.kind == "iterator":
        return "placeholder", {"iterator": source.name}
    if method == "get_next" and isinstance(receiver, cst.Call):
        # `dataset.make_one_shot_iterator().get_next()`: the iterator gets a name of its own.
        made = data_kind(move, receiver, move.aliases.resolve(receiver.func), item)
        if made is not None and made[0] == "iterator":
            return "placeholder", {"iterator": move.fresh("iterator"), "dataset": made[1]["dataset"]}
    if (path or "").startswith("data.") or (receiver is not None and is_dataset(move, receiver)):
        deps = move.scope.deps_of(call)
        if any(n.kind == "dataset" and n.info.get("placeholders") for n in deps):
            raise Unsupported(DATA_RULE.id, item.line, "a dataset built in steps from placeholders")
        fed = sorted((n for n in deps if n.kind == "placeholder"), key=lambda n: n.index)
        if fed and any(n.kind not in ("placeholder", "dataset") for n in deps):
            raise Unsupported(DATA_RULE.id, item.line, "a dataset built from placeholders and graph tensors")
        if fed:
            return "dataset", {"placeholders": fed}
        dataset_inputs.check_computed(move, deps, item.line)
        return "dataset", {}
    return None


def is_dataset(move: MoveState, expr: cst.BaseExpression | None) -> bool:
    """A dataset node, or a method chain on one (`dataset.batch(32).repeat()`, or on a
    constructor: `tf.data.TFRecordDataset(files).repeat()`)."""
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        if (move.aliases.resolve(expr.func) or "").startswith("data."):
            return True
        expr = expr.func.value
    if isinstance(expr, cst.Name):
        node = move.scope.lookup(expr.value)
        return node is not None and node.kind == "dataset"
    return isinstance(expr, cst.Attribute) and (move.aliases.resolve(expr) or "").startswith("data.")


def with_default(move: MoveState, call: cst.Call, item: Item) -> dict:
    """A placeholder with a default: an argument that run sites which do not feed it leave out."""
    args = call_args(call, ("input", "shape", "name"))
    default = args.get("input")
    dtype = _LITERAL_DTYPES.get(type(default)) if default is not None else None
    if isinstance(default, cst.Name):
        dtype = "tf.bool" if default.value in ("True", "False") else None
    if dtype is None or "shape" not in args:
        raise Unsupported(SESSION_RULE.id, item.line, "placeholder_with_default of a computed value")
    return {"args": {"dtype": cst.parse_expression(dtype), "shape": args["shape"]}, "default": default}


def variable_container(move: MoveState, value: cst.BaseExpression) -> str | None:
    """"dict"/"list" for a literal dict/list of tf.Variable(...) calls, or a list of one
    made per item of a comprehension; else None."""
    if isinstance(value, cst.ListComp) and value.for_in.inner_for_in is None and not value.for_in.ifs:
        elements = [value.elt]
        kind = "list"
    elif isinstance(value, cst.Dict):
        elements = [e.value for e in value.elements if isinstance(e, cst.DictElement)]
        kind = "dict"
    elif isinstance(value, cst.List):
        elements = [e.value for e in value.elements]
        kind = "list"
    else:
        return None
    ok = bool(elements) and all(
        isinstance(e, cst.Call) and move.aliases.resolve(e.func) == "Variable" for e in elements
    )
    return kind if ok else None


def optimizer_name(move: MoveState, stmt: cst.BaseStatement) -> str:
    """`optimizer`; with several optimizers made where they minimize, each named for what
    its train op trains (`D_solver = tf.train.AdamOptimizer().minimize(...)` → `D_optimizer`)."""
    inline = memoised_walk("inline optimizers", move.module, lambda module: sum(  # once per module
        1 for c in calls_in(module) if isinstance(c.func, cst.Attribute)
        and isinstance(c.func.value, cst.Call) and move.aliases.resolve(c.func.value.func) in OPTIMIZERS))
    targets = [n.value for n in names_read(stmt.body[0].targets[0].target)] if (
        isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)) else []
    what = what_is_trained(targets[0].removeprefix(SELF_PREFIX)) if inline > 1 and len(targets) == 1 else ""
    return f"{what}_optimizer" if what and f"{what}_optimizer".isidentifier() else "optimizer"


def train_kind(move: MoveState, call: cst.Call, func: cst.Attribute, item: Item) -> tuple[str, dict]:
    receiver = func.value
    opt: Node | None = None
    if isinstance(receiver, cst.Name):
        opt = move.scope.lookup(receiver.value)
    elif isinstance(receiver, cst.Call) and move.aliases.resolve(receiver.func) in OPTIMIZERS:
        path = move.aliases.resolve(receiver.func)
        opt = Node(
            (move.fresh(("self__" if move.class_mode else "") + optimizer_name(move, item.stmt)),), "optimizer",
            item.stmt, receiver,  # type: ignore[arg-type]
            len(move.scope.nodes), move.scope.deps_of(receiver),
            info={"path": path, "call": receiver, "inline": True},
        )
    if opt is None or opt.kind != "optimizer":
        raise Unsupported(OPTIMIZER_RULE.id, item.line, "optimizer method on an object the model does not know")
    method = func.attr.value
    params = APPLY_PARAMS if method == "apply_gradients" else MINIMIZE_PARAMS
    if method == "compute_gradients":
        params = ("loss", "var_list")
    info = {"method": method, "optimizer": opt, "args": call_args(call, params)}
    return ("compute_gradients" if method == "compute_gradients" else "train"), info


def _unzipped(value: cst.Call) -> cst.Call | None:
    """The call `c` of `zip(*c)` (pairs unzipped into two tuples), else None."""
    if not (isinstance(value.func, cst.Name) and value.func.value == "zip" and len(value.args) == 1):
        return None
    arg = value.args[0]
    return arg.value if arg.star == "*" and isinstance(arg.value, cst.Call) else None


def _trainable(call: cst.Call) -> bool:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "trainable":
            return not (isinstance(arg.value, cst.Name) and arg.value.value == "False")
    return True
