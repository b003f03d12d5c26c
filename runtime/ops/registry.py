"""The op registry: each op is a NumPy kernel, an optional shape rule and a gradient.

Gradients are Python functions written with other registered ops (TF's RegisterGradient), so
the same code builds symbolic gradient graphs and runs eagerly under a GradientTape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from runtime import context, dtypes, trace
from runtime.tensor import EagerTensor, SymbolicTensor


class OpDef:
    """How to run, shape and differentiate one op type."""

    __slots__ = ("dtype_fn", "grad", "make", "n_out", "name", "probe", "shape_fn", "shape_only", "stateful")

    def __init__(self, name: str, make: Callable[[dict], Callable], *, grad: Any = None,
                 shape_fn: Any = None, stateful: bool = False, n_out: Any = 1,
                 shape_only: bool = False, probe: Any = None, dtype_fn: Any = None) -> None:
        self.name = name
        # The output dtype from the inputs, where it is not the first input's (a comparison's
        # bool, a select's branches): what a graph op gets when its kernel cannot be probed.
        self.dtype_fn = dtype_fn
        self.make = make
        self.grad = grad
        self.shape_fn = shape_fn
        self.stateful = stateful
        self.n_out = n_out
        self.shape_only = shape_only
        # For stateful ops that may not run at graph-construction time (random draws): a kernel
        # factory giving stand-in values of the right shape for static-shape inference.
        self.probe = probe


REGISTRY: dict[str, OpDef] = {}
NO_GRADIENT = object()


def register(name: str, make: Callable[[dict], Callable], **kw: Any) -> OpDef:
    opdef = OpDef(name, make, **kw)
    REGISTRY[name] = opdef
    return opdef


def register_simple(name: str, fn: Callable, **kw: Any) -> OpDef:
    """An op without attributes: its kernel is ``fn`` itself."""
    return register(name, lambda attrs: fn, **kw)


def register_gradient(name: str) -> Callable:
    def deco(fn: Callable) -> Callable:
        REGISTRY[name].grad = fn
        return fn

    return deco


def not_differentiable(*names: str) -> None:
    for n in names:
        REGISTRY[n].grad = NO_GRADIENT


class EagerOp:
    """What a tape records for an eagerly executed op; looks like an Operation to gradients."""

    __slots__ = ("attrs", "inputs", "name", "opdef", "outputs", "type")

    def __init__(self, opdef: OpDef, inputs: list, outputs: list, attrs: dict) -> None:
        self.opdef = opdef
        self.type = opdef.name
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs
        self.name = opdef.name

    def get_attr(self, name: str) -> Any:
        return self.attrs[name]


def apply(op_type: str, inputs: list, attrs: dict | None = None, name: str | None = None) -> Any:
    """Run (eager) or add (graph) one op; returns its output tensor(s)."""
    opdef = REGISTRY[op_type]
    attrs = attrs if attrs is not None else {}
    graph = None
    for t in inputs:
        if isinstance(t, SymbolicTensor):
            graph = t.graph
            break
    if graph is None and not context.executing_eagerly():
        graph = context.get_default_graph()
    if graph is not None:
        inputs = [graph.capture(t) for t in inputs]
        op = graph.create_op(opdef, inputs, attrs, name)
        if context.STATE.tapes:
            _record(op)
        if opdef.n_out == 1:
            return op.outputs[0]
        return tuple(op.outputs) if op.outputs else op
    fn = opdef.make(attrs)
    result = fn(*[t._value for t in inputs])
    if opdef.n_out == 1:
        outs = [EagerTensor(np.asarray(result))]
    else:
        outs = [EagerTensor(np.asarray(r)) for r in result or ()]
        if not outs:
            return None
    if context.STATE.tapes:
        _record(EagerOp(opdef, list(inputs), outs, attrs))
    if trace.recorder.values is not None:
        trace.recorder.values.computed(opdef.name, list(inputs), outs)
    return outs[0] if opdef.n_out == 1 else tuple(outs)


def _record(op: Any) -> None:
    for tape in context.STATE.tapes:
        tape._record(op)


def out_dtype(value: Any) -> dtypes.DType:
    return dtypes.as_dtype(np.asarray(value).dtype)
