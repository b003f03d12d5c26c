"""Execution plans: a flat list of kernel calls over numbered slots, compiled once and cached.

Running a plan is one loop over ``(kernel, input slots, output slots)`` tuples; there is no
per-op dispatch, attribute parsing or shape inference at run time. Compiling also folds what
never changes: ops whose values were known exactly when the graph was built become slots filled
before the first step, and ops that statically return one of their inputs become slot aliases.
"""

from __future__ import annotations

import heapq
from typing import Any

from runtime.errors import InvalidArgumentError

_WRITES = {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp", "PyCall", "NoOp"}


class Plan:
    """Compiled steps plus where feeds go and where fetches come from."""

    __slots__ = ("const_fetches", "feed_slots", "fetch_slots", "prefill", "steps")

    def __init__(self, steps: list, prefill: list, feed_slots: list[int], fetch_slots: list[Any]) -> None:
        self.steps = steps
        self.prefill = prefill
        self.feed_slots = feed_slots
        self.fetch_slots = fetch_slots
        # Folded values are shared between runs, so a fetch of one hands out a copy.
        self.const_fetches = any(s is not None and prefill[s] is not None for s in fetch_slots)

    def run(self, feed_values: list) -> list:
        v = self.prefill.copy()
        for i, x in zip(self.feed_slots, feed_values):
            v[i] = x
        try:
            _run_steps(self.steps, v)
        except (ValueError, IndexError) as exc:
            # A kernel's NumPy call failed on values the static shapes allowed (a batch of
            # another size, an index out of range): TF's executor reports an OpError.
            raise InvalidArgumentError(None, None, f"Graph execution error:\n\n{exc}") from None
        if self.const_fetches:
            return [None if s is None else _copy_if(self.prefill[s], v[s]) for s in self.fetch_slots]
        return [None if s is None else v[s] for s in self.fetch_slots]


def _copy_if(folded: Any, value: Any) -> Any:
    return value.copy() if folded is not None and value is folded and hasattr(value, "copy") else value


class Loop:
    """A loop region of a traced function: its body steps run once per value of a range."""

    __slots__ = ("body", "carries", "cell")

    def __init__(self, body: list, cell: list, carries: list) -> None:
        self.body = body
        self.cell = cell
        self.carries = carries


def _run_steps(steps: list, v: list) -> None:
    for fn, ins, out in steps:
        if fn is None:
            _run_loop(out, v[ins[0]], v)
            continue
        n = len(ins)
        if n == 2:
            r = fn(v[ins[0]], v[ins[1]])
        elif n == 1:
            r = fn(v[ins[0]])
        elif n == 0:
            r = fn()
        else:
            r = fn(*[v[i] for i in ins])
        if out.__class__ is int:
            v[out] = r
        elif out:
            for o, x in zip(out, r):
                v[o] = x


def _run_loop(loop: Loop, values: Any, v: list) -> None:
    for carry, before, _ in loop.carries:
        v[carry] = v[before]
    for value in values:
        loop.cell[0] = value
        _run_steps(loop.body, v)
        for carry, _, after in loop.carries:
            v[carry] = v[after]
    for carry, _, after in loop.carries:
        v[after] = v[carry]


def _schedule_session(targets: list, fed: set[int]) -> list:
    """Ops needed for ``targets`` in a dataflow order where reads run before writes (TF's executor
    runs ready reads first; variable writes wait for everything that does not depend on them)."""
    needed: dict[int, Any] = {}
    stack = list(targets)
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed[id(op)] = op
        for t in op.inputs:
            if id(t) not in fed:
                stack.append(t.op)
        stack.extend(op.control_inputs)
    indeg: dict[int, int] = {}
    users: dict[int, list] = {}
    for op in needed.values():
        deps = {id(t.op) for t in op.inputs if id(t) not in fed and id(t.op) in needed}
        deps |= {id(c) for c in op.control_inputs if id(c) in needed}
        indeg[id(op)] = len(deps)
        for d in deps:
            users.setdefault(d, []).append(op)
    ready = [(op.type in _WRITES, op.index, id(op), op) for op in needed.values() if indeg[id(op)] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        *_, op = heapq.heappop(ready)
        order.append(op)
        for u in users.get(id(op), []):
            indeg[id(u)] -= 1
            if indeg[id(u)] == 0:
                heapq.heappush(ready, (u.type in _WRITES, u.index, id(u), u))
    return order


def _same_static_shape(op: Any) -> bool:
    a, b = op.inputs[0].shape, op.outputs[0].shape
    return a.is_fully_defined() and b.is_fully_defined() and a.as_list() == b.as_list()


#: Ops whose output is their first input whenever the predicate holds for the op.
_PASSTHROUGH = {
    "Identity": lambda op: True,
    "StopGradient": lambda op: True,
    "SumToShape": _same_static_shape,
    "BroadcastLike": _same_static_shape,
}


def _folded(op: Any) -> bool:
    """Whether every output's value was known exactly when the op was built."""
    return bool(op.outputs) and not op.opdef.stateful and all(
        getattr(o, "_exact", False) and o._probe is not None for o in op.outputs)


def compile_plan(ops: list, feeds: list, fetches: list, loops: list | None = None) -> Plan:
    """Number the slots the ops touch and emit one step per op (skipping fed producers).

    ``loops`` are regions ``(start, end, range_tensor, cell, carried)`` of a traced function:
    ops with index in [start, end) form a body that runs once per range value; ``carried``
    pairs (tensor before the loop, tensor after one pass) carry values between iterations.
    """
    slots: dict[int, int] = {}

    def slot(t: Any) -> int:
        s = slots.get(id(t))
        if s is None:
            s = slots[id(t)] = len(slots)
        return s

    feed_slots = [slot(t) for t in feeds]
    fed = {id(t) for t in feeds}
    consts: dict[int, Any] = {}
    alias: dict[int, int] = {}

    def source(t: Any, remap: dict[int, int]) -> int:
        s = slot(t)
        return alias[s] if s in alias else remap.get(s, s)
    regions = sorted(loops or [], key=lambda r: (r[0], -r[1]))

    def emit(op_list: list, remap: dict[int, int], in_loop: bool) -> list:
        steps: list = []
        i = 0
        while i < len(op_list):
            op = op_list[i]
            region = next((r for r in regions if r[0] == op.index and r not in done), None)
            if region is not None:
                done.append(region)
                _, end, rng, cell, carried = region
                body_ops = []
                while i < len(op_list) and op_list[i].index < end:
                    body_ops.append(op_list[i])
                    i += 1
                inner = dict(remap)
                carries = []
                for before, after in carried:
                    c = len(slots)
                    slots[("carry", c)] = c  # type: ignore[index]
                    inner[slot(before)] = c
                    carries.append((c, source(before, remap), source(after, {})))
                body = emit(body_ops, inner, True)
                steps.append((None, (source(rng, remap),), Loop(body, cell, carries)))
                continue
            i += 1
            if any(id(o) in fed for o in op.outputs):
                continue
            # In a loop body a value known at trace time may be a carry's first value only, and
            # a feed overrides what the graph would have computed upstream of it (a shape-only
            # op is safe: feeds must match a fully defined static shape).
            if not in_loop and _folded(op) and (
                    op.opdef.shape_only or all(slot(t) in consts for t in op.inputs)):
                for o in op.outputs:
                    consts[slot(o)] = o._probe[0]
                continue
            passthrough = _PASSTHROUGH.get(op.type)
            if passthrough is not None and passthrough(op):
                alias[slot(op.outputs[0])] = source(op.inputs[0], remap)
                continue
            ins = tuple(source(t, remap) for t in op.inputs)
            if op.opdef.n_out == 1:
                out: Any = slot(op.outputs[0])
            else:
                out = tuple(slot(o) for o in op.outputs)
            steps.append((op.fn, ins, out))
        return steps

    done: list = []
    steps = emit(list(ops), {}, False)
    fetch_slots = [None if f is None else source(f, {}) for f in fetches]
    prefill: list = [None] * len(slots)
    for s, value in consts.items():
        prefill[s] = value
    return Plan(steps, prefill, feed_slots, fetch_slots)


def session_plan(targets: list, feeds: list, fetch_tensors: list) -> Plan:
    fed = {id(t) for t in feeds}
    return compile_plan(_schedule_session(targets, fed), feeds, fetch_tensors)
