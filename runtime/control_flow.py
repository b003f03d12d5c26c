"""tf.cond / tf.while_loop / control_dependencies / init helpers shared by both faces."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from runtime import context, nest
from runtime.convert import convert_to_tensor
from runtime.errors import InvalidArgumentError, Unsupported
from runtime.graph import constant_value
from runtime.tensor import Tensor

#: Graph-mode ``cond`` branches being built: (predicate, branch) pairs, outermost first.
COND_GATES: list[tuple[Any, bool]] = []


def cond_gate() -> Any:
    """The boolean tensor under which a variable write in the current cond branch takes effect,
    or None outside cond branches."""
    from runtime.ops.math import logical_and, logical_not

    gate = None
    for pred, branch in COND_GATES:
        g = pred if branch else logical_not(pred)
        gate = g if gate is None else logical_and(gate, g)
    return gate


def _branch(pred: Any, branch: bool, fn: Any) -> Any:
    COND_GATES.append((pred, branch))
    try:
        return fn()
    finally:
        COND_GATES.pop()


def cond(pred: Any, true_fn: Any = None, false_fn: Any = None, name: str | None = None, strict: bool = False) -> Any:
    """Eager and trace-time-constant predicates pick one branch; otherwise both branches are built
    and their outputs selected with ``where``. A variable write inside a branch keeps the variable's
    value unless the branch is taken (see ``Variable._write``), as TF runs only the taken branch."""
    if context.executing_eagerly():
        return true_fn() if bool(pred) else false_fn()
    if isinstance(pred, bool):  # TF's graph cond (TF1's and a tf.function's) takes a tensor only
        raise TypeError("pred must not be a Python bool", pred)
    if not isinstance(pred, Tensor):
        # A NumPy bool decides now; anything else (a variable) is read when the graph runs,
        # not judged by the value it holds while the graph is built.
        if isinstance(pred, np.bool_):
            return true_fn() if pred else false_fn()
        pred = convert_to_tensor(pred)
    if pred.dtype.name != "bool":
        raise InvalidArgumentError(None, None, f"Input 'pred' passed {pred.dtype.name} expected bool")
    c = constant_value(pred)
    if c is not None and not isinstance(c, Tensor):
        return true_fn() if bool(c) else false_fn()
    from runtime.ops.math import where

    t, f = _branch(pred, True, true_fn), _branch(pred, False, false_fn)
    return nest.map_structure(lambda a, b: _select(where, pred, a, b), t, f)


def _select(where: Any, pred: Any, a: Any, b: Any) -> Any:
    """``where`` on a scalar predicate; the result keeps the shape both branches agree on, as TF's
    cond does even when the predicate's own shape is unknown."""
    out = where(pred, a, b)
    sa, sb = getattr(a, "shape", None), getattr(b, "shape", None)
    if out.shape.rank is None and sa is not None and sb is not None and sa.rank == sb.rank and sa.rank is not None:
        out.set_shape([x if x == y else None for x, y in zip(sa.as_list(), sb.as_list())])
    return out


def while_loop(cond_fn: Any, body: Any, loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations: Any = None, name: str | None = None, return_same_structure: bool = True) -> Any:
    """Eager loops run in Python; graph loops whose condition is known at trace time are unrolled."""
    vars_ = loop_vars
    count = 0
    single = not isinstance(loop_vars, (list, tuple))
    while True:
        if maximum_iterations is not None and count >= int(maximum_iterations):
            break
        c = cond_fn(vars_) if single else cond_fn(*vars_)
        if not context.executing_eagerly():
            cv = constant_value(c) if isinstance(c, Tensor) else c
            if cv is None:
                raise Unsupported("tf.while_loop with a condition unknown at graph-construction time")
            c = cv
        if not bool(c):
            break
        out = body(vars_) if single else body(*vars_)
        vars_ = out if single or isinstance(out, (list, tuple)) else [out]
        count += 1
    return vars_


@contextlib.contextmanager
def control_dependencies(control_inputs: Any) -> Iterator[None]:
    if context.executing_eagerly():
        yield
        return
    with context.get_default_graph().control_dependencies(control_inputs):
        yield


def no_op(name: str | None = None) -> Any:
    if context.executing_eagerly():
        return None
    from runtime.ops.state import apply_noop

    return apply_noop(name)
