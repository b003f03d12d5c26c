"""Execution plans: a flat list of kernel calls over numbered slots, compiled once and cached.

Running a plan is one loop over ``(kernel, input slots, output slots)`` tuples; there is no
per-op dispatch, attribute parsing or shape inference at run time.
"""

from __future__ import annotations

import heapq
from typing import Any

_WRITES = {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp", "PyCall", "NoOp"}


class Plan:
    """Compiled steps plus where feeds go and where fetches come from."""

    __slots__ = ("feed_slots", "fetch_slots", "n", "steps")

    def __init__(self, steps: list, n: int, feed_slots: list[int], fetch_slots: list[Any]) -> None:
        self.steps = steps
        self.n = n
        self.feed_slots = feed_slots
        self.fetch_slots = fetch_slots

    def run(self, feed_values: list) -> list:
        v: list = [None] * self.n
        for i, x in zip(self.feed_slots, feed_values):
            v[i] = x
        _run_steps(self.steps, v)
        return [None if s is None else v[s] for s in self.fetch_slots]


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
    regions = sorted(loops or [], key=lambda r: (r[0], -r[1]))

    def emit(op_list: list, remap: dict[int, int]) -> list:
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
                    carries.append((c, remap.get(slot(before), slot(before)), slot(after)))
                body = emit(body_ops, inner)
                steps.append((None, (remap.get(slot(rng), slot(rng)),), Loop(body, cell, carries)))
                continue
            i += 1
            if any(id(o) in fed for o in op.outputs):
                continue
            ins = tuple(remap.get(slot(t), slot(t)) for t in op.inputs)
            if op.opdef.n_out == 1:
                out: Any = slot(op.outputs[0])
            else:
                out = tuple(slot(o) for o in op.outputs)
            steps.append((op.fn, ins, out))
        return steps

    done: list = []
    steps = emit(list(ops), {})
    fetch_slots = [None if f is None else slot(f) for f in fetches]
    return Plan(steps, len(slots), feed_slots, fetch_slots)


def session_plan(targets: list, feeds: list, fetch_tensors: list) -> Plan:
    fed = {id(t) for t in feeds}
    return compile_plan(_schedule_session(targets, fed), feeds, fetch_tensors)
