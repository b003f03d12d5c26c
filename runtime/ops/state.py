"""Stateful ops: variable reads and writes, printing, grouping, and Python-callback kernels."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from runtime import context, nest
from runtime.ops.registry import apply, not_differentiable, register, register_gradient
from runtime.tensor import EagerTensor, Tensor


def _var_spec(inputs: list, attrs: dict) -> list:
    v = attrs["var"]
    return [(v.shape, v.dtype)]


register("ReadVariableOp", lambda attrs: attrs["var"]._read, shape_fn=_var_spec, stateful=True)


def _assign_make(kind: str) -> Any:
    def make(attrs: dict) -> Any:
        var = attrs["var"]
        if attrs.get("gated"):  # written from a cond branch: only when the branch's gate holds
            if kind == "set":
                return lambda x, gate: var._assign_array(x) if gate else var._read()
            if kind == "add":
                return lambda x, gate: var._assign_array(var._read() + x) if gate else var._read()
            return lambda x, gate: var._assign_array(var._read() - x) if gate else var._read()
        if kind == "set":
            return var._assign_array
        if kind == "add":
            return lambda x: var._assign_array(var._read() + x)
        return lambda x: var._assign_array(var._read() - x)

    return make


register("AssignVariableOp", _assign_make("set"), shape_fn=_var_spec, stateful=True)
register("AssignAddVariableOp", _assign_make("add"), shape_fn=_var_spec, stateful=True)
register("AssignSubVariableOp", _assign_make("sub"), shape_fn=_var_spec, stateful=True)
not_differentiable("ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")


register("NoOp", lambda attrs: (lambda *xs: None), shape_fn=lambda i, a: [], stateful=True, n_out=0)


def group(*inputs: Any, name: str | None = None) -> Any:
    """``tf.group``: one op that runs after all of ``inputs``."""
    if context.executing_eagerly():
        return None
    graph = context.get_default_graph()
    deps = [x for x in nest.flatten(list(inputs)) if x is not None]
    with graph.control_dependencies(deps):
        return apply_noop(name)


def apply_noop(name: str | None = None) -> Any:
    graph = context.get_default_graph()
    from runtime.ops.registry import REGISTRY

    return graph.create_op(REGISTRY["NoOp"], [], {}, name or "NoOp")


def _pycall_make(attrs: dict) -> Any:
    return attrs["fn"]


register("PyCall", _pycall_make, shape_fn=lambda i, a: a["specs"], stateful=True,
         n_out=lambda attrs: len(attrs["specs"]))
not_differentiable("PyCall")


def py_call(fn: Any, inputs: list, specs: list, name: str | None = None, writes: list | None = None) -> Any:
    """Run ``fn(*arrays)`` as an op: now (eager) or on every execution (graph/function).
    ``writes``: the variables it changes (an optimizer step's), for what reads them later."""
    attrs = {"fn": fn, "specs": specs}
    if writes:
        attrs["writes"] = writes
    return apply("PyCall", inputs, attrs, name=name)


# --- printing -------------------------------------------------------------------------------------


def format_float(v: Any) -> str:
    """TF's C++ float formatting: shortest of %.6g/%.9g (float32) or %.15g/%.17g that round-trips."""
    if isinstance(v, np.float32) or (isinstance(v, np.generic) and v.dtype == np.float16):
        s = f"{v:.6g}"
        return s if np.float32(float(s)) == v else f"{v:.9g}"
    s = f"{v:.15g}"
    return s if float(s) == float(v) else f"{v:.17g}"


def _format_scalar(v: Any) -> str:
    if isinstance(v, (np.floating, float)):
        if np.isnan(v):
            return "nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        return format_float(v)
    if isinstance(v, (np.bool_, bool)):
        return "1" if v else "0"
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def format_array(a: np.ndarray, summarize: int = 3) -> str:
    """Format like ``tf.print``: nested brackets, space separated, long dims elided with ``...``."""
    if a.ndim == 0:
        return _format_scalar(a[()])

    def rec(x: np.ndarray, depth: int) -> str:
        if x.ndim == 1:
            items = list(x)
            if summarize >= 0 and len(items) > 2 * summarize:
                parts = [_format_scalar(v) for v in items[:summarize]] + ["..."] + [
                    _format_scalar(v) for v in items[-summarize:]]
            else:
                parts = [_format_scalar(v) for v in items]
            return "[" + " ".join(parts) + "]"
        rows = list(x)
        if summarize >= 0 and len(rows) > 2 * summarize:
            texts = [rec(r, depth + 1) for r in rows[:summarize]] + ["..."] + [
                rec(r, depth + 1) for r in rows[-summarize:]]
        else:
            texts = [rec(r, depth + 1) for r in rows]
        sep = "\n" * (x.ndim - 1) + " " * (depth + 1)
        return "[" + sep.join(texts) + "]"

    return rec(a, 0)


def _render(template: Any, values: list, summarize: int) -> str:
    it = iter(values)

    def render(obj: Any) -> str:
        if isinstance(obj, _Slot):
            return format_array(np.asarray(next(it)), summarize)
        if isinstance(obj, str):
            return obj
        if isinstance(obj, list):
            return "[" + ", ".join(render(o) for o in obj) + "]"
        if isinstance(obj, tuple):
            return "(" + ", ".join(render(o) for o in obj) + ")"
        if isinstance(obj, dict):
            return "{" + ", ".join(f"{k!r}: {render(v)}" for k, v in obj.items()) + "}"
        return str(obj)

    return render(template)


class _Slot:
    """Marks where a tensor goes in a ``tf.print`` template."""


def _print_make(attrs: dict) -> Any:
    parts, sep, end, stream, summarize = (attrs["parts"], attrs["sep"], attrs["end"],
                                          attrs["stream"], attrs["summarize"])

    def kernel(*values: np.ndarray) -> None:
        text = sep.join(_render(p, list(vs), summarize) for p, vs in _split(parts, values)) + end
        out = stream if stream not in (None, "stderr", "stdout") else (
            sys.stdout if stream == "stdout" else sys.stderr)
        out.write(text)

    return kernel


def _split(parts: list, values: tuple) -> list:
    out, i = [], 0
    for template, n in parts:
        out.append((template, values[i:i + n]))
        i += n
    return out


register("PrintV2", _print_make, shape_fn=lambda i, a: [], stateful=True, n_out=0)


def tf_print(*inputs: Any, output_stream: Any = None, summarize: int = 3, sep: str = " ",
             end: str = "\n", name: str | None = None) -> Any:
    """``tf.print``: prints every time it runs (eagerly, or each graph/function execution)."""
    tensors: list[Tensor] = []
    parts = []
    for obj in inputs:
        count = 0

        def tmpl(o: Any) -> Any:
            nonlocal count
            if isinstance(o, Tensor) or hasattr(o, "_as_tensor"):
                from runtime.convert import convert_to_tensor

                tensors.append(convert_to_tensor(o))
                count += 1
                return _Slot()
            if isinstance(o, list):
                return [tmpl(x) for x in o]
            if isinstance(o, tuple):
                return tuple(tmpl(x) for x in o)
            if isinstance(o, dict):
                return {k: tmpl(v) for k, v in o.items()}
            if isinstance(o, np.ndarray):
                tensors.append(EagerTensor(o))
                count += 1
                return _Slot()
            return o if isinstance(o, str) else str(o)

        parts.append((tmpl(obj), count))
    if output_stream is None or output_stream is sys.stderr:
        stream: Any = "stderr"
    elif output_stream is sys.stdout:
        stream = "stdout"
    else:
        stream = output_stream
    attrs = {"parts": parts, "sep": sep, "end": end, "stream": stream,
             "summarize": summarize if summarize is not None else 3}
    if context.executing_eagerly() and not any(not isinstance(t, EagerTensor) for t in tensors):
        _print_make(attrs)(*[t._value for t in tensors])
        return None
    return apply("PrintV2", tensors, attrs, name=name)


register_gradient("PrintV2")(lambda op, *g: [None] * len(op.inputs))
