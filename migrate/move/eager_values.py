"""Eager reads: tensors the driver reads outside a run (printed, listed, evaluated) computed
by step functions of their own, Keras weights built before they are listed.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..eager_reads import Reads, keras_shape
from ..graph import Node, backward_slice, calls_in
from ..graph_classes import PREFIX as SELF_PREFIX
from ..op_seeds import is_random
from ..report import Unsupported
from ..rules.assign import ASSIGN_CALLS
from ..rules.eager_reads import RULE as EAGER_RULE
from ..rules.session import RULE as SESSION_RULE
from . import listings, steps
from .state import MoveState, StepFunction

# Calls that draw random numbers when evaluated, besides the random ops op_seeds counts.
RANDOM_PREFIXES = ("random", "nn.dropout", "layers.dropout", "keras.layers.Dropout", "multinomial")


def read_eagerly(
    move: MoveState, stmt: cst.BaseStatement, reads: Reads, new_functions: list[cst.FunctionDef],
) -> tuple[list[cst.BaseStatement], dict[int, cst.BaseExpression]]:
    """Statements building lazy Keras weights first, and the TF2 expression of each read:
    a tensor → a call of the step function computing it; a variable list → the owners'."""
    if not reads.rewrites:
        return [], {}
    if move.class_mode:
        name = next(iter(reads.tensors.values()), None)
        what = f"graph tensor {name.value.replace(SELF_PREFIX, 'self.')}" if name else "variable list"
        raise Unsupported(SESSION_RULE.id, move.line(stmt), f"{what} used outside a session run")
    eager: dict[int, cst.BaseExpression] = {}
    for key, name in reads.tensors.items():
        node = move.scope.lookup(name.value)
        assert node is not None
        fn = eager_function(move, node, stmt, new_functions)
        eager[key] = cst.parse_expression(f"{fn.name}()")
        move.fixed(EAGER_RULE.id, stmt, f"{name.value} computed eagerly by {fn.name}()")
    prelude: list[cst.BaseStatement] = []
    if reads.lists:
        prelude = build_weights(move, stmt, new_functions)
    for key, (attr, names_unused) in reads.lists.items():
        named = reads.names.get(key, [])
        eager[key] = cst.parse_expression(listings.variable_listing(move, attr, stmt, names_unused or bool(named)))
        plain = isinstance(eager[key], cst.List)  # tf.Variables: TF2 names them as TF1 did
        if named and not plain and not listings.keras_listing(eager[key]):
            raise Unsupported(EAGER_RULE.id, move.line(stmt), "names of TF1 and Keras variables read from one list")
        for read in [] if plain else named:
            # A Keras variable's `name` is its leaf; TF1's scoped name is its `path`.
            eager[id(read)] = cst.parse_expression(f'f"{{{code(read.value)}.path}}:0"')
        for read in [] if plain else reads.shapes.get(key, []):
            eager[id(read)] = keras_shape(read)
        move.fixed(EAGER_RULE.id, stmt, "variable list read from the variables and models the program created")
    return prelude, eager


def eager_function(move: MoveState, node: Node, stmt: cst.BaseStatement, new_functions: list[cst.FunctionDef]) -> StepFunction:
    """The step function computing one tensor read outside a run (made once per tensor)."""
    inside, placeholders, _ = backward_slice([node])
    why = ""
    if placeholders:
        why = f" (it needs {placeholders[0].name} fed)"
    elif any(n.kind == "train" or stateful(move, n) for n in inside):
        why = " (computing it would run updates or draw random numbers)"
    if why:
        raise Unsupported(SESSION_RULE.id, move.line(stmt), f"graph tensor {node.name} used outside a session run{why}")
    return step_function(move, node, stmt, new_functions)


def step_function(move: MoveState, node: Node, stmt: cst.BaseStatement, new_functions: list[cst.FunctionDef]) -> StepFunction:
    """The step function fetching `node` alone, the one a `sess.run(<node>)` gets."""
    fetch = cst.Name(node.name)
    key = steps.step_key(move, f"{node.name} -> {node.name}", [node])
    fn = move.functions.get(key)
    if fn is None:
        fn = steps.make_function(move, fetch, [node], stmt)
        move.functions[key] = fn
        new_functions.append(fn.definition)
    return fn


def stateful(move: MoveState, node: Node) -> bool:
    """A node whose evaluation changes state: an update or a random draw."""
    for call in calls_in(node.value):
        path = move.aliases.resolve(call.func) or ""
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
        if is_random(call, move.aliases) or path.startswith(RANDOM_PREFIXES) or path in ASSIGN_CALLS:
            return True
        if method.startswith(("assign", "scatter_")):
            return True
    return False


def build_weights(move: MoveState, stmt: cst.BaseStatement, new_functions: list[cst.FunctionDef]) -> list[cst.BaseStatement]:
    """`f.get_concrete_function()` for the step functions whose Keras weights do not exist
    yet: TF1 created them when the graph was built; Keras creates them on the first call."""
    lazy = [n for n in move.scope.nodes if id(n) not in move.built and listings.lazy_owners(move, n)]
    slices = {id(n): {id(m) for m in backward_slice([n])[0]} for n in lazy}
    sinks = [n for n in lazy if not any(id(n) in slices[id(m)] for m in lazy if m is not n)]
    statements: list[cst.BaseStatement] = []
    for sink in sinks:
        fn = step_function(move, sink, stmt, new_functions)
        if any("iterator" in p.info for p in fn.params):
            raise Unsupported(EAGER_RULE.id, move.line(stmt), f"variables of {fn.name}() read before a batch built them")
        move.built.update(slices[id(sink)])
        statements.append(cst.parse_statement(f"{fn.name}.get_concrete_function()\n"))
        move.fixed(EAGER_RULE.id, stmt, f"{fn.name}() traced so its Keras weights exist where TF1 had built them")
    return statements


def report_shown(move: MoveState, reads: Reads) -> None:
    """What a printed read shows differs in TF2: an informational finding says so."""
    messages = {
        "tensor": "{} is printed as its computed value, not TF1's symbolic Tensor(...)",
        "variable": "{} is printed with its value (TF1 printed name, shape and dtype only)",
        "variables": "the variable list holds TF2 variables: printed, they show their values, and a Keras "
                     "variable's .name lacks TF1's scope (its .path has it)",
    }
    for read, what in reads.shown:
        name = read.value if isinstance(read, cst.Name) else ""
        move.fixed(EAGER_RULE.id, move.line(read), messages[what].format(name), "info")
