"""Execution plans: a flat list of kernel calls over numbered slots, compiled once and cached.

Running a plan is one loop over ``(kernel, input slots, output slots)`` tuples; there is no
per-op dispatch, attribute parsing or shape inference at run time. Compiling also folds what
never changes: ops whose values were known exactly when the graph was built become slots filled
before the first step, and ops that statically return one of their inputs become slot aliases.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from runtime import trace
from runtime.errors import InvalidArgumentError
from runtime.static_kernels import SPECIALIZE

_WRITES = {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp", "PyCall", "NoOp"}


#: Runs of a plan before it becomes generated Python: compiling costs about as much per step as
#: a few dozen interpreted runs save, and many plans (initializers, evaluations) run only once.
_GENERATE_AFTER = 30


class Plan:
    """Compiled steps plus where feeds go and where fetches come from.

    A plan without loop regions that keeps being run becomes one generated Python function:
    slots are its locals, kernels and folded values its globals, so a step costs the kernel call.
    """

    __slots__ = ("call", "const_fetches", "feed_slots", "fetch_slots", "prefill", "runs", "steps")

    def __init__(self, steps: list, prefill: list, feed_slots: list[int], fetch_slots: list[Any]) -> None:
        self.steps = steps
        self.prefill = prefill
        self.feed_slots = feed_slots
        self.fetch_slots = fetch_slots
        # Folded values are shared between runs, so a fetch of one hands out a copy.
        self.const_fetches = any(s is not None and prefill[s] is not None for s in fetch_slots)
        self.call: Any = None
        # Loop regions run through the interpreter: such a plan never counts up to generation.
        self.runs = _GENERATE_AFTER + 1 if any(fn is None for fn, _, _ in steps) else 0

    def run(self, feed_values: Any) -> list:
        try:
            if self.call is not None:
                return self.call(*feed_values)
            self.runs += 1
            if self.runs == _GENERATE_AFTER:
                self.call = _generate(self)
            v = self.prefill.copy()
            for i, x in zip(self.feed_slots, feed_values):
                v[i] = x
            _run_steps(self.steps, v)
        except (ValueError, IndexError) as exc:
            # A kernel's NumPy call failed on values the static shapes allowed (a batch of
            # another size, an index out of range): TF's executor reports an OpError.
            raise InvalidArgumentError(None, None, f"Graph execution error:\n\n{exc}") from None
        if self.const_fetches:
            return [None if s is None else _copy_if(self.prefill[s], v[s]) for s in self.fetch_slots]
        return [None if s is None else v[s] for s in self.fetch_slots]


def _generate(plan: Plan) -> Any:
    """The plan as straight-line Python: ``def run(f0, f1, ...)`` returning the fetch list."""
    names: dict[str, Any] = {"_copy": _copy}
    written: set[int] = set()
    lines = [f"    v{s} = f{i}" for i, s in enumerate(plan.feed_slots)]
    written.update(plan.feed_slots)
    for s, value in enumerate(plan.prefill):
        if value is not None:
            names[f"c{s}"] = value

    def read(s: int) -> str:
        if plan.prefill[s] is not None:
            return f"c{s}"
        return f"v{s}" if s in written else "None"

    # A value is dropped after its last read (as NumPy code drops a temporary), so the next
    # allocation of its size reuses memory that is still in cache.
    last_read = {i: k for k, (_, ins, _) in enumerate(plan.steps) for i in ins}
    kept = set(plan.fetch_slots)
    for k, (fn, ins, out) in enumerate(plan.steps):
        names[f"k{k}"] = fn
        call = f"k{k}({', '.join(read(i) for i in ins)})"
        if out.__class__ is int:
            lines.append(f"    v{out} = {call}")
            written.add(out)
        elif out:
            lines.append(f"    {', '.join(f'v{o}' for o in out)}, *_ = {call}")
            written.update(out)
        else:
            lines.append(f"    {call}")
        done = sorted({i for i in ins if last_read[i] == k and i in written and i not in kept
                       and plan.prefill[i] is None})
        if done:
            lines.append(f"    del {', '.join(f'v{i}' for i in done)}")
    fetches = []
    for s in plan.fetch_slots:
        if s is None:
            fetches.append("None")
        elif plan.prefill[s] is not None:
            fetches.append(f"_copy(c{s})")
        else:
            fetches.append(read(s))
    params = ", ".join(f"f{i}" for i in range(len(plan.feed_slots)))
    source = f"def run({params}):\n" + "\n".join(lines) + f"\n    return [{', '.join(fetches)}]\n"
    exec(compile(source, "<plan>", "exec"), names)  # noqa: S102 - source built above from slot numbers
    return names["run"]


def _copy(value: Any) -> Any:
    return value.copy() if hasattr(value, "copy") else value


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


#: Inputs that ops use for their shape alone: with a fully defined static shape they need no value.
_SHAPE_INPUTS = {"ExpandReduced": (1,), "BroadcastLike": (1,), "SumToShape": (1,), "ZerosLike": (0,),
                 "OnesLike": (0,), "Shape": (0,), "Size": (0,), "Rank": (0,)}


def _evaluate(op: Any, sources: list[int], consts: dict[int, Any], slot: Any) -> bool:
    """Fold a pure op whose inputs are folded values or static shapes: run its kernel once now."""
    if op.opdef.stateful or not op.inputs or not op.outputs:
        return False
    shape_inputs = _SHAPE_INPUTS.get(op.type, ())
    args = []
    for k, (t, s) in enumerate(zip(op.inputs, sources)):
        if s in consts:
            args.append(consts[s])
        elif k in shape_inputs and t.shape.is_fully_defined():
            args.append(np.zeros(t.shape.as_list(), t.dtype.np))
        else:
            return False
    try:
        with np.errstate(all="ignore"):
            result = op.fn(*args)
        values = [result] if op.opdef.n_out == 1 else list(result)
    except Exception:  # noqa: BLE001 - a kernel that fails now fails at run time, as TF reports it
        return False
    if len(values) != len(op.outputs) or any(x is None for x in values):
        return False
    for o, x in zip(op.outputs, values):
        consts[slot(o)] = x
    return True


def _live_steps(steps: list, step_ops: list, fetch_slots: list, roots: set[int]) -> list:
    """Steps whose values are used, plus effects and asked-for ops. A pure op whose consumers
    were all folded is dropped when its static shapes are known (as TF's graph optimizer
    materializes shapes and prunes what no longer feeds anything)."""
    needed = {s for s in fetch_slots if s is not None}
    kept = []
    for step, op in zip(reversed(steps), reversed(step_ops)):
        out = step[2]
        outs = (out,) if out.__class__ is int else out
        if (op.opdef.stateful or id(op) in roots or any(o in needed for o in outs)
                or not all(t.shape.is_fully_defined() for t in op.outputs)):
            kept.append(step)
            needed.update(step[1])
    kept.reverse()
    return kept


def compile_plan(ops: list, feeds: list, fetches: list, loops: list | None = None,
                 roots: tuple = ()) -> Plan:
    """Number the slots the ops touch and emit one step per op (skipping fed producers).

    ``loops`` are regions ``(start, end, range_tensor, cell, carried)`` of a traced function:
    ops with index in [start, end) form a body that runs once per range value; ``carried``
    pairs (tensor before the loop, tensor after one pass) carry values between iterations.
    ``roots`` are ops that run because they were asked for, whether or not their values are used.

    Without loops (and while no value log records each kernel's outputs) compiling goes
    further: pure ops whose inputs are folded values, or are used only for a static shape, are
    evaluated once; kernels are specialized to their static shapes (``static_kernels``); and
    pure steps whose values nothing uses any more are dropped.
    """
    fast = not loops and trace.recorder.values is None
    step_ops: list = []
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
            if fast and _evaluate(op, [source(t, remap) for t in op.inputs], consts, slot):
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
            fn = op.fn
            if fast:
                special = SPECIALIZE.get(op.type)
                fn = (special(op) if special is not None else None) or fn
                step_ops.append(op)
            steps.append((fn, ins, out))
        return steps

    done: list = []
    steps = emit(list(ops), {}, False)
    fetch_slots = [None if f is None else source(f, {}) for f in fetches]
    if fast:
        steps = _live_steps(steps, step_ops, fetch_slots, {id(op) for op in roots})
    prefill: list = [None] * len(slots)
    for s, value in consts.items():
        prefill[s] = value
    return Plan(steps, prefill, feed_slots, fetch_slots)


def session_plan(targets: list, feeds: list, fetch_tensors: list) -> Plan:
    fed = {id(t) for t in feeds}
    return compile_plan(_schedule_session(targets, fed), feeds, fetch_tensors, roots=tuple(targets))
