"""Op seeds: TF1's graph-level op-seed counter followed statement by statement, so random ops
and layer weights drawn in TF2 take the seeds TF1 gave them (op_seeds.py holds the counter).
"""

from __future__ import annotations

import libcst as cst

from ..graph import Node, calls_by_callee, calls_in, memoised_walk, refers_to_tf
from ..op_seeds import SET_SEED_CALLS, is_random, uncounted
from ..rules.session import RULE as SESSION_RULE
from .state import MoveState


def seeded_module(move: MoveState) -> bool:
    return memoised_walk("seeded", move.module, lambda module: any(
        move.aliases.resolve(c.func) in SET_SEED_CALLS for c in calls_in(module)))


def track_seeds(move: MoveState, stmt: cst.BaseStatement) -> None:
    """Follow the graph's op-seed counter: started by a graph-level seed, lost when a
    statement may draw op seeds that cannot be numbered from here."""
    calls = calls_in(stmt)
    if any(move.aliases.resolve(c.func) in SET_SEED_CALLS for c in calls):
        move.op_seeds.start()
        return
    if move.op_seeds.next is None:
        return
    functions = memoised_walk("functions", move.module, _functions_by_name)
    called = [functions[c.func.value] for c in calls
              if isinstance(c.func, cst.Name) and c.func.value in functions]
    models = [f.name.value for f in called if f.name.value in move.models.seeds.plans]
    if models and len(called) == 1 and not any(is_random(c, move.aliases) or uncounted(c, move.aliases) for c in calls):
        move.models.seeds.number(models[0], move.op_seeds)
    if number_layer_call(move, calls, called):
        return
    helpers = [f for f in called if refers_to_tf(f, move.aliases)]
    if not any(uncounted(c, move.aliases) for c in calls) and seed_helper(move, calls, helpers):
        return
    if any(uncounted(c, move.aliases) for c in calls) or helpers:
        move.op_seeds.lose()
        for func in called:
            if any(is_random(c, move.aliases) for c in calls_in(func)):
                move.fixed(SESSION_RULE.id, stmt, f"{func.name.value}() draws random values: under a "
                            "global seed TF2 draws other numbers than TF1's graph did; pass seed= "
                            "to its random ops to keep them", "manual")


def number_layer_call(move: MoveState, calls: list[cst.Call], called: list[cst.FunctionDef]) -> bool:
    """A statement calling one layer function that makes its weights per call (its instance
    is made here): the weights take the graph's next op seeds, as TF1 drew them."""
    assert move.models is not None
    if len(called) != 1 or any(is_random(c, move.aliases) or uncounted(c, move.aliases) for c in calls):
        return False
    name = called[0].name.value
    cls = move.models.layer_classes.get(name)
    known = move.models.layer_draws.get(cls) if cls is not None and name in move.models.fresh_layers else None
    if known is None or move.op_seeds.next is None:
        return False
    draws, counted = known
    if draws:
        call = next(c for c in calls if isinstance(c.func, cst.Name) and c.func.value == name)
        move.instance_seeds[id(call)] = move.op_seeds.next
        move.op_seeds.next += draws
    if not counted:
        move.op_seeds.lose()
    return True


def seed_helper(move: MoveState, calls: list[cst.Call], helpers: list[cst.FunctionDef]) -> bool:
    """A graph-building function called once, from a statement that draws nothing else:
    its random ops take the next op seeds in its body's order, as TF1 built them."""
    if len(helpers) != 1 or any(is_random(c, move.aliases) for c in calls):
        return False
    func = helpers[0]
    name = func.name.value
    sites = calls_by_callee(move.module).get(name, [])
    body = calls_in(func)
    straight = all(isinstance(s, cst.SimpleStatementLine) for s in func.body.body)
    others = memoised_walk("functions", move.module, _functions_by_name).keys() - {name}
    if len(sites) != 1 or not straight or any(uncounted(c, move.aliases) for c in body) or any(
        isinstance(c.func, cst.Name) and c.func.value in others for c in body
    ):
        return False
    seeded = move.op_seeds.seed(func, body, move.aliases, move.lines)
    if move.op_seeds.next is None:
        return False
    if seeded is not func:
        move.seeded_helpers[name] = (func, seeded)  # type: ignore[assignment]
        move.fixed(SESSION_RULE.id, func, f"{name}(): random ops given TF1's op seeds")
    return True


def with_seeded_helpers(move: MoveState, out: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """Module functions whose random ops were numbered, with their seeds written in."""
    for i, stmt in enumerate(out):
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in move.seeded_helpers:
            original, seeded = move.seeded_helpers[stmt.name.value]
            if stmt.body.deep_equals(original.body):
                out[i] = stmt.with_changes(body=seeded.body)
    return out


def note_random_copies(move: MoveState, inside: list[Node], function: str) -> None:
    """TF1 ran one random op whose stream every session.run advanced; each step function
    builds its own copy with its own stream, so once two functions draw, the numbers part."""
    for node in inside:
        if not node.info.get("draws"):
            continue
        copies = move.random_copies.setdefault(id(node), [])
        copies.append(function)
        if len(copies) == 2:
            move.fixed(SESSION_RULE.id, node.stmt, f"{node.name}: its random op runs in {copies[0]}() "
                        f"and {function}(); TF1's single op drew one stream across all session runs, "
                        "each tf.function draws its own, so their random values differ once both run",
                        "manual")


def _functions_by_name(module: cst.Module) -> dict[str, cst.FunctionDef]:
    """The module's top-level functions by name, as Python binds them (the last def wins)."""
    return {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
