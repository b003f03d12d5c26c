"""Reverse-mode differentiation over a list of recorded ops (a tape, or a graph's ops).

The same routine serves ``tf.gradients`` (graph ops, symbolic result), GradientTape in eager
mode (EagerOp records, eager result) and GradientTape inside ``tf.function`` (symbolic).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from runtime import context
from runtime.ops.registry import NO_GRADIENT
from runtime.tensor import SymbolicTensor, Tensor


def engine_variable(x: Any) -> Any:
    """The engine Variable behind ``x`` (a tf.Variable or a Keras variable), else None."""
    from runtime.variables import Variable

    if isinstance(x, Variable):
        return x
    inner = getattr(x, "_engine_variable", None)
    return inner if isinstance(inner, Variable) else None


def _differentiable(t: Any) -> bool:
    dt = t.dtype
    return dt.is_floating or dt.is_complex


def _zeros_for(output: Any, zeros_like: Callable) -> Any:
    """The gradient of an output nothing used: zeros marked as such (TF's ``_is_zeros_tensor``),
    so a gradient function can skip a term that would only add zeros."""
    zero = zeros_like(output)
    zero._is_zeros_tensor = True
    return zero


def _aggregate(gs: list | None) -> Any:
    if not gs:
        return None
    if len(gs) == 1:
        return gs[0]
    from runtime.ops.math import add_n

    return add_n(gs)


@contextlib.contextmanager
def _scope(name: str | None) -> Iterator[None]:
    if name is None or context.executing_eagerly():
        yield
        return
    with context.get_default_graph().name_scope(name):
        yield


def backprop(targets: list, sources: list, ops: list, output_gradients: list | None = None,
             unconnected: str = "none", scope: str | None = None) -> list:
    """d(sum of targets)/d(source) for each source, computed by walking ``ops`` backwards."""
    from runtime.ops.math import ones_like, zeros_like

    reads: dict[int, list] = {}
    for op in ops:
        if op.type == "ReadVariableOp":
            reads.setdefault(id(op.attrs["var"]), []).append(op.outputs[0])
    source_ids: list[list[int]] = []
    for s in sources:
        var = engine_variable(s)
        if var is not None:
            source_ids.append([id(t) for t in reads.get(id(var), [])])
        elif isinstance(s, Tensor):
            source_ids.append([id(s)] if _differentiable(s) else [])
        else:
            raise TypeError(f"Argument `sources` must be tensors or variables, got {s!r}")
    reach = {i for ids in source_ids for i in ids}
    for op in ops:
        if any(id(i) in reach for i in op.inputs):
            for o in op.outputs:
                if _differentiable(o):
                    reach.add(id(o))
    needed = {id(t) for t in targets if id(t) in reach}
    order = []
    for op in reversed(ops):
        if any(id(o) in needed for o in op.outputs) and any(id(i) in reach for i in op.inputs):
            order.append(op)
            for i in op.inputs:
                if id(i) in reach:
                    needed.add(id(i))
    grads: dict[int, list] = {}
    with _scope(scope):
        for k, t in enumerate(targets):
            if id(t) not in reach:
                continue
            g = output_gradients[k] if output_gradients is not None else None
            grads.setdefault(id(t), []).append(ones_like(t) if g is None else g)
        for op in order:
            out_grads = [_aggregate(grads.get(id(o))) for o in op.outputs]
            if all(g is None for g in out_grads):
                continue
            fn = op.opdef.grad
            if fn is NO_GRADIENT:
                continue
            if fn is None:
                raise LookupError(f"No gradient defined for operation '{op.name}' (op type: {op.type}). "
                                  "In general every operation must have an associated `@tf.RegisterGradient` "
                                  "for correct autodiff, which this op is lacking.")
            if len(op.outputs) > 1:
                out_grads = [g if g is not None or not _differentiable(o) else _zeros_for(o, zeros_like)
                             for g, o in zip(out_grads, op.outputs)]
            name = f"{op.name}_grad" if isinstance(op.outputs[0] if op.outputs else None, SymbolicTensor) else None
            with _scope(name):
                in_grads = fn(op, *out_grads)
            for inp, g in zip(op.inputs, in_grads):
                if g is not None and id(inp) in reach:
                    grads.setdefault(id(inp), []).append(g)
        results = []
        for s, ids in zip(sources, source_ids):
            gs = [g for i in ids for g in grads.get(i, [])]
            r = _aggregate(gs)
            if r is None and unconnected == "zero":
                var = engine_variable(s)
                r = zeros_like(var._as_tensor() if var is not None else s)
            results.append(r)
    return results


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients", gate_gradients: bool = False,
              aggregation_method: Any = None, stop_gradients: Any = None,
              unconnected_gradients: Any = "none", colocate_gradients_with_ops: bool = False) -> list:
    """``tf.gradients``: symbolic gradients in the default graph; always returns a list."""
    from runtime import nest
    from runtime.convert import convert_to_tensor

    if context.executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    ys_l = [convert_to_tensor(y) for y in nest.flatten(ys)]
    xs_l = nest.flatten(xs)
    gys = None if grad_ys is None else [None if g is None else convert_to_tensor(g) for g in nest.flatten(grad_ys)]
    graph = context.get_default_graph()
    ops = graph.get_operations()
    if stop_gradients is not None:
        stops = {id(t) for t in nest.flatten(stop_gradients)}
        ops = [op for op in ops if not any(id(o) in stops for o in op.outputs)]
    uc = getattr(unconnected_gradients, "value", unconnected_gradients)
    with graph.as_default():
        return backprop(ys_l, xs_l, ops, gys, uc, scope=name or "gradients")
