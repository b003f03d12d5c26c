"""tf.function: trace a Python function into a graph per input signature, run a cached plan."""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any

import numpy as np

from runtime import context, dtypes, nest, trace
from runtime.graph import Graph, constant_value
from runtime.ops.registry import apply, not_differentiable, register
from runtime.plan import compile_plan
from runtime.shapes import TensorShape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


class TensorSpec:
    """``tf.TensorSpec``: shape + dtype of a function input."""

    def __init__(self, shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> None:
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, t: Any, name: str | None = None) -> TensorSpec:
        return cls(t.shape, t.dtype, name)

    def is_compatible_with(self, t: Any) -> bool:
        return self.dtype == t.dtype and self.shape.is_compatible_with(t.shape)

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorSpec) and (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype))


class FuncGraph(Graph):
    """The graph a tf.function traces into."""

    is_function = True

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.loops: list = []


class _TraceContext:
    def __init__(self, may_create_variables: bool) -> None:
        self.may_create_variables = may_create_variables
        self.created_variables: list = []


class ConcreteFunction:
    """One traced graph and its plan (``get_concrete_function``)."""

    def __init__(self, graph: FuncGraph, inputs: list, outputs: Any, flat_outputs: list) -> None:
        self.graph = graph
        self.inputs = inputs
        self.structured_outputs = outputs
        self._flat = flat_outputs
        fetch = [t if isinstance(t, SymbolicTensor) else None for t in flat_outputs]
        # Recording values (``trace.ValueLog``) runs dead ops too: a value the program
        # computes and drops still shows which of its lines match the other program's.
        keep_all = graph.loops or trace.recorder.values is not None
        ops = graph.get_operations() if keep_all else _live_ops(graph.get_operations(), fetch)
        self._plan = compile_plan(ops, inputs, fetch, graph.loops)
        seen: dict[int, Any] = {}
        for op in graph.get_operations():
            var = op.attrs.get("var") if op.type.endswith("VariableOp") else None
            if var is not None and id(var) not in seen:
                seen[id(var)] = var
        self.variables = tuple(seen.values())
        self.trainable_variables = tuple(v for v in self.variables if v.trainable)

    @property
    def outputs(self) -> list:
        return [t for t in self._flat if isinstance(t, SymbolicTensor)]

    def _run(self, feed_values: list) -> Any:
        results = self._plan.run(feed_values)
        out = self.structured_outputs
        if out is None:
            return None
        if out.__class__ is SymbolicTensor:  # one tensor returned: its value, as an eager tensor
            return EagerTensor(np.asarray(results[0]), out.dtype)
        flat = []
        for t, r in zip(self._flat, results):
            if isinstance(t, SymbolicTensor):
                flat.append(EagerTensor(np.asarray(r), t.dtype))
            else:
                flat.append(t)
        return nest.pack_sequence_as(self.structured_outputs, flat)

    def __call__(self, *args: Any) -> Any:
        values = [_as_array(a, p.dtype) for a, p in zip(nest.flatten(list(args)), self.inputs)]
        return self._run(values)


_SIG = ("SIG",)  # the cache key of the one trace a full input signature allows


def _live_ops(ops: list, fetch: list) -> list:
    """Ops that produce a fetched value or have effects (TF's automatic control dependencies
    run every stateful op), plus everything they depend on; in creation order."""
    live: set[int] = set()
    stack = [t.op for t in fetch if t is not None] + [op for op in ops if op.opdef.stateful]
    while stack:
        op = stack.pop()
        if id(op) in live:
            continue
        live.add(id(op))
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return [op for op in ops if id(op) in live]


def _as_array(x: Any, dt: dtypes.DType) -> np.ndarray:
    if isinstance(x, EagerTensor):
        return x._value
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()._value
    return np.asarray(x, dtype=dt.np)


def _leaf_key(x: Any) -> Any:
    if isinstance(x, EagerTensor):
        return ("T", x.dtype.name, x._value.shape)
    if isinstance(x, np.ndarray):
        return ("T", dtypes.as_dtype(x.dtype).name, x.shape)
    if isinstance(x, TensorSpec):
        return ("T", x.dtype.name, tuple(x.shape.dims) if x.shape.rank is not None else None)
    if isinstance(x, (bool, int, float, str, bytes, type(None))):
        return ("P", type(x).__name__, x)
    return ("O", id(x))


def _is_fed(x: Any) -> bool:
    return isinstance(x, (EagerTensor, np.ndarray, TensorSpec))


class Function:
    """A polymorphic traced function (``tf.function``)."""

    def __init__(self, python_function: Any, input_signature: Any = None, autograph: bool = True,
                 jit_compile: Any = None, reduce_retracing: bool = False, **_: Any) -> None:
        self._fn = python_function
        self._autograph = autograph
        self.input_signature = None if input_signature is None else list(input_signature)
        self._cache: dict[Any, ConcreteFunction] = {}
        self._tracing_count = 0
        self._traced_once = False
        self._bound: dict[int, Function] = {}
        self._instance: Any = None
        sig = self.input_signature
        self._fast_specs: list | None = (
            [(s.dtype.np, set()) for s in sig] if sig and all(isinstance(s, TensorSpec) for s in sig) else None)
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self) -> Any:
        return self._fn

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        bound = self._bound.get(id(instance))
        if bound is None:
            bound = Function(self._fn.__get__(instance, owner), self.input_signature, self._autograph)
            bound._instance = instance
            self._bound[id(instance)] = bound
        return bound

    def experimental_get_tracing_count(self) -> int:
        return self._tracing_count

    def _canonical(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        if self.input_signature is None:
            return args, kwargs
        from runtime.convert import _python_to_array, convert_to_tensor

        if kwargs:
            try:
                bound = inspect.signature(self._fn).bind(*args, **kwargs)
                flat_args = list(bound.args) + list(bound.kwargs.values())
            except (TypeError, ValueError):
                flat_args = list(args) + list(kwargs.values())
        else:
            flat_args = list(args)
        if len(flat_args) != len(self.input_signature):
            raise TypeError(f"{getattr(self._fn, '__name__', 'function')}() takes {len(self.input_signature)} "
                            f"positional arguments but {len(flat_args)} were given")
        out = []
        for a, spec in zip(flat_args, self.input_signature):
            if isinstance(spec, TensorSpec) and not isinstance(a, TensorSpec):
                if isinstance(a, Tensor):
                    t = a
                elif isinstance(a, (np.ndarray, np.generic, float, int)):
                    t = EagerTensor(_python_to_array(a, spec.dtype), spec.dtype)
                else:
                    with context.init_scope():
                        t = convert_to_tensor(a, dtype=spec.dtype)
                if t.dtype != spec.dtype:
                    raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast "
                                    f"{TensorSpec.from_tensor(t)!r} to {spec!r}`.")
                if not spec.shape.is_compatible_with(t.shape):
                    raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast "
                                    f"{TensorSpec.from_tensor(t)!r} to {spec!r}`.")
                out.append(t)
            else:
                out.append(a)
        if not kwargs:
            self._note_fast_shapes(tuple(out))
        return tuple(out), {}

    def _key(self, args: tuple, kwargs: dict) -> Any:
        if self.input_signature is not None:
            return _SIG
        flat = nest.flatten([list(args), kwargs])
        return (tuple(_leaf_key(x) for x in flat), _structure_key([list(args), kwargs]))

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        if not args and not kwargs and self.input_signature is not None:
            args = tuple(self.input_signature)
        args, kwargs = self._canonical(args, kwargs)
        return self._concrete(args, kwargs)

    def _concrete(self, args: tuple, kwargs: dict) -> ConcreteFunction:
        key = self._key(args, kwargs)
        cf = self._cache.get(key)
        if cf is None:
            cf = self._trace(args, kwargs)
            self._cache[key] = cf
        return cf

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not context.STATE.eager_enabled or context.STATE.graph_stack:
            return self._fn(*args, **kwargs)
        if not kwargs and self._fast_specs is not None:
            cf = self._cache.get(_SIG)
            if cf is not None and self._fast_feeds(args):
                return cf._run(args)
        args, kwargs = self._canonical(args, kwargs)
        cf = self._concrete(args, kwargs)
        feeds = [_as_array(x, dtypes.float32) for x in nest.flatten([list(args), kwargs]) if _is_fed(x)]
        return cf._run(feeds)

    def _fast_feeds(self, args: tuple) -> bool:
        """Whether every argument is an ndarray that already has its spec's dtype and a shape
        seen before: then the arguments are the feeds, without conversion or re-validation."""
        specs = self._fast_specs
        if len(args) != len(specs):  # type: ignore[arg-type]
            return False
        for a, (np_dtype, seen) in zip(args, specs):  # type: ignore[arg-type]
            if a.__class__ is not np.ndarray or a.dtype != np_dtype or a.shape not in seen:
                return False
        return True

    def _note_fast_shapes(self, args: tuple) -> None:
        """Remember argument shapes the signature accepted (see ``_fast_feeds``)."""
        if self._fast_specs is None:
            return
        for a, (np_dtype, seen) in zip(args, self._fast_specs):
            if isinstance(a, EagerTensor) and a._value.dtype == np_dtype:
                seen.add(a._value.shape)

    def _trace(self, args: tuple, kwargs: dict) -> ConcreteFunction:
        first = not self._traced_once
        self._traced_once = True
        cf, created = self._trace_once(args, kwargs, may_create=first)
        if created:
            cf, _ = self._trace_once(args, kwargs, may_create=False)
        return cf

    def _trace_once(self, args: tuple, kwargs: dict, may_create: bool) -> tuple[ConcreteFunction, list]:
        from runtime.ops.array import placeholder

        self._tracing_count += 1
        graph = FuncGraph(getattr(self._fn, "__name__", "function"))
        tctx = _TraceContext(may_create)
        structure = [list(args), kwargs]
        flat = nest.flatten(structure)
        names = _arg_names(self._fn, len(args))
        inputs: list[SymbolicTensor] = []
        saved_tapes = context.STATE.tapes
        context.STATE.tapes = []
        context.STATE.function_traces.append(tctx)
        try:
            with graph.as_default():
                new_flat = []
                specs = iter(self.input_signature or [])
                for i, x in enumerate(flat):
                    if _is_fed(x):
                        spec = next(specs, None)
                        if isinstance(spec, TensorSpec):
                            shape, dt = spec.shape, spec.dtype
                        elif isinstance(x, (TensorSpec, EagerTensor)):
                            shape, dt = x.shape, x.dtype
                        else:
                            shape, dt = TensorShape(x.shape), dtypes.as_dtype(x.dtype)
                        p = placeholder(dt, shape, name=names[i] if i < len(names) else "args")
                        inputs.append(p)
                        new_flat.append(p)
                    else:
                        new_flat.append(x)
                new_args, new_kwargs = nest.pack_sequence_as(structure, new_flat)
                if self._autograph:  # imported on first trace: a TF1 program never needs it
                    from runtime.autograph import convert

                    fn = convert(self._fn)
                else:
                    fn = self._fn
                out = fn(*new_args, **new_kwargs)
                flat_out = [_output_tensor(graph, o, self._fn) for o in nest.flatten(out)]
                out_struct = out
        finally:
            context.STATE.function_traces.pop()
            context.STATE.tapes = saved_tapes
        cf = ConcreteFunction(graph, inputs, out_struct, flat_out)
        return cf, tctx.created_variables


def _structure_key(s: Any) -> Any:
    if isinstance(s, dict):
        return ("d", tuple((k, _structure_key(s[k])) for k in sorted(s, key=str)))
    if isinstance(s, (list, tuple)):
        return (type(s).__name__, tuple(_structure_key(c) for c in s))
    return None


def _arg_names(fn: Any, n: int) -> list[str]:
    try:
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return params + [f"args_{i}" for i in range(len(params), max(n, len(params)) + 64)]


def _output_tensor(graph: Graph, o: Any, fn: Any) -> Any:
    """A returned value as a tensor of the function's graph; TF rejects what does not convert."""
    if o is None or isinstance(o, SymbolicTensor):
        return o
    if isinstance(o, EagerTensor):
        return graph.capture(o)
    if hasattr(o, "_as_tensor"):
        return o._as_tensor()
    from runtime.convert import convert_to_tensor

    try:
        return convert_to_tensor(o)
    except (ValueError, TypeError):
        raise TypeError(
            "To be compatible with tf.function, Python functions must return zero or more "
            f"Tensors or ExtensionTypes or None values; in compilation of {fn}, found return "
            f"value of type {type(o).__name__}, which is not a Tensor or ExtensionType."
        ) from None


def function(func: Any = None, input_signature: Any = None, autograph: bool = True,
             jit_compile: Any = None, reduce_retracing: bool = False, experimental_implements: Any = None,
             experimental_autograph_options: Any = None, experimental_attributes: Any = None,
             experimental_relax_shapes: Any = None, experimental_compile: Any = None,
             experimental_follow_type_hints: Any = None) -> Any:
    """``tf.function`` as a decorator with or without arguments."""
    if func is None:
        return lambda f: Function(f, input_signature, autograph, jit_compile, reduce_retracing)
    return Function(func, input_signature, autograph, jit_compile, reduce_retracing)


def iterate_symbolic(t: SymbolicTensor) -> Any:
    """Iterating a tensor while tracing: a loop over a trace-time-constant range is unrolled."""
    if not t.graph.is_function:
        raise TypeError("Tensor objects are only iterable when eager execution is enabled. To iterate "
                        "over this tensor use tf.map_fn.")
    value = constant_value(t)
    if value is None:
        if t.op.type != "Range":
            from runtime.errors import Unsupported

            raise Unsupported("a Python loop over a symbolic tensor other than tf.range (tf.while_loop)")
        return _RangeLoop(t)
    from runtime.ops.array import constant_in_graph

    dt = t.dtype
    return iter([constant_in_graph(t.graph, np.asarray(v, dt.np), dt, "Const") for v in value])


def _loop_index_make(attrs: dict) -> Any:
    cell = attrs["cell"]
    return lambda: np.asarray(cell[0])


register("LoopIndex", _loop_index_make, stateful=True,
         shape_fn=lambda inputs, attrs: [(TensorShape([]), attrs["dtype"])])
not_differentiable("LoopIndex")


class _RangeLoop:
    """``for i in tf.range(n)`` with ``n`` known only at run time: the body is traced once and
    becomes a loop region of the plan. Python locals rebound to a new tensor by the body are
    carried from one iteration to the next, as AutoGraph's loop variables are."""

    def __init__(self, rng: SymbolicTensor) -> None:
        self.rng = rng
        self.graph = rng.graph
        self.state = 0
        self.cell: list = [None]

    def __iter__(self) -> _RangeLoop:
        return self

    def __next__(self) -> Any:
        frame = sys._getframe(1)
        if self.state == 0:
            self.state = 1
            self.before = {k: v for k, v in frame.f_locals.items() if isinstance(v, SymbolicTensor)}
            self.start = len(self.graph._ops)
            return apply("LoopIndex", [], {"cell": self.cell, "dtype": self.rng.dtype})
        if self.state == 1:
            self.state = 2
            after = frame.f_locals
            carried = [(v, after[k]) for k, v in self.before.items()
                       if isinstance(after.get(k), SymbolicTensor) and after[k] is not v
                       and after[k].graph is self.graph]
            self.graph.loops.append((self.start, len(self.graph._ops), self.rng, self.cell, carried))
        raise StopIteration
