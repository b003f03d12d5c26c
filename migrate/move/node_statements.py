"""Graph objects that persist: the statement each classified node keeps at the top level
(variables, optimizers, layers, savers, datasets) converted to TF2; tensors leave it.
"""

from __future__ import annotations

import libcst as cst

from .. import codegen as cg
from ..api_table import REGULARIZERS
from ..codegen import code
from ..graph import Node, call_args, calls_in, top_level_defs
from ..op_seeds import is_random
from ..report import Unsupported
from ..rules.data import RULE as DATA_RULE
from ..rules.get_variable import RULE as GET_VARIABLE_RULE
from ..rules.get_variable import draws_start_values, variable_from_get_variable
from ..rules.layers import RULE as LAYERS_RULE
from ..rules.optimizers import RULE as OPTIMIZER_RULE
from ..rules.saver import RULE as SAVER_RULE
from ..rules.session import RULE as SESSION_RULE
from ..rules.summaries import RULE as SUMMARIES_RULE
from ..rules.variable_scope import RULE as SCOPE_RULE
from ..walk import walk
from . import (
    contexts,
    dataset_inputs,
    layer_instances,
    moving_averages,
    optimizer_objects,
    savers,
    seeding,
)
from .state import Item, MoveState

#: The Saver methods a tf.train.Checkpoint takes over (`save` → `write`, `restore` → `read`).
CHECKPOINT_SAVER_METHODS = frozenset({"save", "restore"})


def emit_node(move: MoveState, node: Node, item: Item) -> list[cst.BaseStatement]:
    stmt = node.stmt
    if not node.info.get("initializable") and any(d.info.get("placeholders") for d in node.deps if d.kind == "dataset"):
        # Such a dataset becomes a function of its placeholders: only an initializer run makes one.
        raise Unsupported(DATA_RULE.id, move.line(stmt), "a dataset built from placeholders used by more than an initializable iterator")
    if node.kind in ("session", "init"):
        if node.kind == "session":
            move.scope.sessions.update(node.names)
        move.fixed(SESSION_RULE.id, stmt, f"{node.kind} statement removed")
        return []
    if node.kind == "placeholder":
        if "iterator" in node.info:
            move.fixed(DATA_RULE.id, stmt, f"{', '.join(node.names)}: each run pulls the next batch from {node.info['iterator']}")
            if "dataset" in node.info:
                return [stmt.with_changes(body=[cst.parse_statement(
                    f"{node.info['iterator']} = iter({code(node.info['dataset'])})\n").body[0]])]  # type: ignore[arg-type,attr-defined]
            return []
        move.fixed(SESSION_RULE.id, stmt, f"placeholder {node.name} becomes a function argument")
        move.placeholder_comments[id(node)] = cg.inner_comments(stmt)
        move.comments_moved.add(id(stmt))
        return []
    if node.kind == "dataset":
        fed: list[Node] = node.info.get("placeholders", [])  # type: ignore[assignment]
        if not fed:
            return [stmt]
        if len(node.names) != 1:
            raise Unsupported(DATA_RULE.id, move.line(stmt), "a dataset built from placeholders")
        maker = node.info["maker"] = move.fresh(f"make_{node.name}")
        params = ", ".join(n.name for n in fed)
        move.fixed(DATA_RULE.id, stmt, f"dataset from placeholders → {maker}({params})")
        definition = cst.parse_statement(f"def {maker}({params}):\n    return {code(node.value)}\n")
        return [definition.with_changes(leading_lines=stmt.leading_lines)]
    if node.kind == "iterator" and node.info.get("initializable"):
        move.fixed(DATA_RULE.id, stmt, "initializable iterator → iter(dataset) where its initializer ran")
        return []
    if node.kind == "iterator":
        move.fixed(DATA_RULE.id, stmt, "tf.data iterator → iter(dataset)")
        return [replace_value(move, stmt, f"iter({code(node.info['dataset'])})")]  # type: ignore[arg-type]
    if node.kind == "variable":
        call = node.value
        if isinstance(call, cst.Call) and move.aliases.resolve(call.func) == "get_variable":
            new = variable_from_get_variable(call, item.prefix, move.aliases, item.line)
            move.fixed(GET_VARIABLE_RULE.id, stmt, f"{node.name} created with tf.Variable")
            if seeding.seeded_module(move) and draws_start_values(call, move.aliases):
                move.fixed(GET_VARIABLE_RULE.id, stmt, f"{node.name}: a TF2 initializer takes no graph "
                            "op seed, so under tf.random.set_seed it draws other start values than "
                            "TF1's graph did", "info")
            return [replace_value(move, stmt, new)]
        named = contexts.scoped_variable(move, stmt, item.names)
        if named is not stmt:
            move.fixed(SESSION_RULE.id, stmt, f"{node.name}: named under its TF1 name scope")
        seeded = move.op_seeds.seed(named, calls_in(named), move.aliases, move.lines)
        if seeded is not named:
            move.fixed(SESSION_RULE.id, stmt, f"{node.name}: random initial value given TF1's op seed")
        elif seeding.seeded_module(move) and any(is_random(c, move.aliases) for c in calls_in(stmt)):
            move.fixed(SESSION_RULE.id, stmt, f"{node.name}: random initial value; under a global "
                        "seed TF2 draws other numbers than TF1's graph did (pass seed= to keep them)",
                        "manual")
        return [seeded]  # type: ignore[list-item]
    if node.kind == "optimizer":
        return [replace_value(move, stmt, optimizer_objects.optimizer_source(move, node))]
    if node.kind == "averages":
        return [replace_value(move, stmt, moving_averages.averages_source(move, node))]
    if node.kind == "restore_map":
        move.fixed(OPTIMIZER_RULE.id, stmt, f"{node.name}: the Saver given it restores the averages itself")
        return []
    if node.kind == "schedule":
        return [replace_value(move, stmt, optimizer_objects.schedule_source(move, node))]
    if node.kind == "saver":
        other = next((a for a in walk(move.module) if isinstance(a, cst.Attribute) and isinstance(a.value, cst.Name)
                      and a.value.value in node.names and a.attr.value not in CHECKPOINT_SAVER_METHODS), None)
        if other is not None:
            raise Unsupported(SAVER_RULE.id, move.line(stmt),
                              f"Saver.{other.attr.value} has no tf.train.Checkpoint form")
        objects = node.info["objects"]
        if savers.keeps_tf1_names(move):
            source = savers.name_based_saver(move, node.value, objects, move.line(stmt))  # type: ignore[arg-type]
            move.fixed(SAVER_RULE.id, stmt, savers.NAME_BASED_NOTE, "manual")
            return [replace_value(move, stmt, source)]
        move.fixed(SAVER_RULE.id, stmt, "tf.train.Saver → tf.train.Checkpoint")
        return [replace_value(move, stmt, f"tf.train.Checkpoint({objects})" if objects else savers.checkpoint_source(move))]
    if node.kind == "object" and _only_given_to_models(move, node):
        return []  # its calls' findings say the constructor took it
    if node.kind in ("varlist", "object"):
        return [stmt]
    if node.kind == "graph":
        contexts.check_graph_uses(move, node.name, stmt)
        move.fixed(SESSION_RULE.id, stmt, f"{node.name} = tf.Graph() removed: TF2 runs eagerly, outside graphs")
        return []
    if node.kind == "summary":
        return []
    if node.kind == "writer":
        return [writer_statement(move, node)]
    if node.kind == "collection":
        move.fixed(SCOPE_RULE.id, stmt, f"{node.name}: variables read from the layers that own them")
        return []
    if node.kind == "updates":
        move.fixed(LAYERS_RULE.id, stmt, f"{node.name} removed: Keras layers update their statistics when called in training")
        return []
    if node.kind == "tensor" and dataset_inputs.computed_here(move, node):
        move.fixed(DATA_RULE.id, stmt, f"{', '.join(node.names)}: computed where it stands, as a dataset is made "
                   "from it (TF1 computed it once, as the iterator started)")
        return [stmt]
    # Inside nodes leave the top level; some bring an object that is created once. Their
    # random ops keep TF1's op seeds: a seeded stateful op in a tf.function draws on from
    # call to call, as the graph's op did from run to run.
    replayed = without_dropped(move, stmt)
    seeded = move.op_seeds.seed(replayed, calls_in(replayed), move.aliases, move.lines)
    if seeded is not replayed:
        move.fixed(SESSION_RULE.id, stmt, f"{node.name}: random op given TF1's op seed")
    if seeded is not replayed or any(isinstance(c.func, cst.Name) and c.func.value in move.seeded_helpers
                                     for c in calls_in(stmt)):
        node.info["draws"] = True
    if seeded is not stmt:
        node.info["seeded"] = seeded
    out: list[cst.BaseStatement] = []
    if node.kind == "train":
        opt: Node = node.info["optimizer"]  # type: ignore[assignment]
        if opt.info.get("inline"):
            move.scope.add(opt)
            opt.index = node.index - 0.5  # type: ignore[assignment]
            out.append(cst.parse_statement(f"{opt.name} = {optimizer_objects.optimizer_source(move, opt)}\n"))
    out.extend(node.info.get("layer_instances", []))  # type: ignore[arg-type]
    if node.info.get("layer"):
        out.append(layer_instances.layer_instance(move, node, item.prefix))
    if node.info.get("rnn"):
        out.append(layer_instances.rnn_instance(move, node, item.prefix))
    return out


def without_dropped(move: MoveState, stmt: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
    """Calls of a converted layer or model lose the arguments its instance took over: `reuse`
    (the instance is shared), configuration (given to its constructor)."""
    assert move.models is not None
    dropped, flags, per_call = move.models.dropped_params, move.models.flag_params, move.models.call_instances
    called = [c.func.value for c in calls_in(stmt) if isinstance(c.func, cst.Name) and c.func.value in dropped | flags]
    if not called:
        return stmt

    class Drop(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
            func = original.func
            if not (isinstance(func, cst.Name) and func.value in dropped | flags):
                return updated
            if id(original) in per_call:
                updated = updated.with_changes(func=cst.Name(per_call[id(original)]))
            params = dropped.get(func.value, ([], ""))[0]
            names = {name for _, name in params}
            positions = {position for position, _ in params}
            keywords = dict(flags.get(func.value, []))
            args = [a.with_changes(keyword=cst.Name(keywords[i]), equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
                    if a.keyword is None and i in keywords else a
                    for i, a in enumerate(updated.args)
                    if not (a.keyword is not None and a.keyword.value in names)
                    and not (a.keyword is None and i in positions)]
            fed = move.models.placeholder_inputs.get(func.value, []) if id(original) in per_call else []
            if fed:  # the placeholders the layer function read as globals, now its call's inputs
                at = next((i for i, a in enumerate(args) if a.keyword is not None), len(args))
                if at:
                    args[at - 1] = args[at - 1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                args = [*args[:at], *(cst.Arg(cst.Name(n), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                                      for n in fed), *args[at:]]
            if id(original) in per_call and args and args[0].keyword is not None:
                # a layer instance takes its input positionally (`layer(x)`, not `layer(input=x)`)
                first = _first_param(move, func.value)
                given = next((a for a in args if a.keyword is not None and a.keyword.value == first), None)
                if given is not None:
                    args = [given.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT),
                            *(a for a in args if a is not given)]
            if args:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(args=args)

    for name in dict.fromkeys(called):
        params, why = dropped.get(name, ([], ""))
        if params:
            move.fixed(SCOPE_RULE.id, stmt, why)
    new = stmt.visit(Drop())
    cg.copy_lines(stmt, new, move.lines)
    return new  # type: ignore[return-value]


def _only_given_to_models(move: MoveState, node: Node) -> bool:
    """A regularizer bound once in a function that reads it only as arguments of converted
    model calls those calls no longer pass (the model's constructor was given its value)."""
    assert move.models is not None
    if not isinstance(node.value, cst.Call) or move.aliases.resolve(node.value.func) not in REGULARIZERS:
        return False
    home = next((f for f in walk(move.module) if isinstance(f, cst.FunctionDef)
                 and any(s is node.stmt for s in f.body.body)), None)
    if home is None:
        return False
    dropped = move.models.dropped_params
    passed: set[int] = set()  # ids of the argument values the converted calls drop
    for call in calls_in(home):
        if isinstance(call.func, cst.Name) and call.func.value in dropped:
            params = dropped[call.func.value][0]
            names, positions = {n for _, n in params}, {i for i, _ in params}
            passed |= {id(a.value) for i, a in enumerate(call.args)
                       if (a.keyword is None and i in positions) or (a.keyword is not None and a.keyword.value in names)}
    uses = [n for n in walk(home) if isinstance(n, cst.Name) and n.value == node.name]
    bound = [n for n in walk(home) if isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name)
             and n.target.value == node.name]
    return len(bound) == 1 and bool(passed) and all(id(n) in passed or n is bound[0].target for n in uses)


def _first_param(move: MoveState, name: str) -> str | None:
    """The first parameter of the module's function ``name``."""
    func = top_level_defs(move.module).get(name)
    params = func.params.params if func is not None else ()
    return params[0].name.value if params else None


def writer_statement(move: MoveState, node: Node) -> cst.SimpleStatementLine:
    """`writer = tf.summary.FileWriter(logdir, graph)` → `tf.summary.create_file_writer(logdir)`."""
    logdir = call_args(node.value, ("logdir", "graph")).get("logdir")  # type: ignore[arg-type]
    if logdir is None:
        raise Unsupported(SUMMARIES_RULE.id, move.line(node.stmt), "FileWriter without a log directory")
    move.fixed(SUMMARIES_RULE.id, node.stmt, "tf.summary.FileWriter → tf.summary.create_file_writer")
    return replace_value(move, node.stmt, f"tf.summary.create_file_writer({code(logdir)})")


def replace_value(move: MoveState, stmt: cst.SimpleStatementLine, source: str) -> cst.SimpleStatementLine:
    """The assignment with a new value; the value's nodes report at the statement's line."""
    assign = stmt.body[0]
    assert isinstance(assign, cst.Assign)
    value = cst.parse_expression(source)
    cg.fill_lines(value, move.line(stmt), move.lines)
    return stmt.with_changes(body=[assign.with_changes(value=value)])
