"""Graph mode: Graph, Operation, name scopes, collections, control dependencies.

Static shapes are inferred by *probing*: every symbolic tensor carries two sample values
computed with each unknown dimension set to 2 and to 3. An output dimension that agrees
between the two probes is static; one that differs is ``None``. This lets every registered
kernel double as its own shape function. Tensors computed only from constants are *exact*
and are constant-folded (``tensor._const``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from runtime import context, dtypes, trace
from runtime.shapes import TensorShape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


class GraphKeys:
    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    REGULARIZATION_LOSSES = "regularization_losses"
    SUMMARIES = "summaries"
    GLOBAL_STEP = "global_step"
    INIT_OP = "init_op"
    TRAIN_OP = "train_op"
    SAVERS = "savers"
    ACTIVATIONS = "activations"
    QUEUE_RUNNERS = "queue_runners"
    VARIABLES = "variables"
    WEIGHTS = "weights"
    BIASES = "biases"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"


class Operation:
    """A node: a kernel closure plus its input tensors and attributes."""

    def __init__(self, graph: Graph, opdef: Any, inputs: list[SymbolicTensor], attrs: dict,
                 name: str, control_inputs: list[Operation]) -> None:
        self.graph = graph
        self.opdef = opdef
        self.type = opdef.name
        self.name = name
        self.inputs = inputs
        self.attrs = attrs
        self.control_inputs = control_inputs
        self.outputs: list[SymbolicTensor] = []
        self.fn = opdef.make(attrs)
        self.index = len(graph._ops)

    @property
    def node_def(self) -> Any:
        return self

    @property
    def device(self) -> str:
        return ""

    def get_attr(self, name: str) -> Any:
        return self.attrs[name]

    def values(self) -> tuple:
        return tuple(self.outputs)

    def run(self, feed_dict: Any = None, session: Any = None) -> None:
        from runtime.session import default_session_for

        default_session_for(self.graph, session).run(self, feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={self.type}>"

    __str__ = __repr__


class Graph:
    """A dataflow graph (``tf.Graph``)."""

    is_function = False

    def __init__(self) -> None:
        self._ops: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._names_in_use: dict[str, int] = {}
        self._name_stack = ""
        self._slots: list[SymbolicTensor] = []
        self._collections: dict[str, list] = {}
        self._control_stack: list[list[Operation]] = []
        self._seed_counter = 0
        self.draw_counts: dict[str, int] = {}  # unseeded random draws by kind and shape
        self._finalized = False
        self.plan_cache: dict[Any, Any] = {}
        self.seed: int | None = None
        self._capture_cache: dict[int, SymbolicTensor] = {}

    # names ------------------------------------------------------------------
    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        if self._name_stack:
            name = self._name_stack + "/" + name
        key = name.lower()
        i = self._names_in_use.get(key, 0)
        if mark_as_used:
            self._names_in_use[key] = i + 1
        if i > 0:
            base = key
            while key in self._names_in_use:
                key = f"{base}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[key] = 1
            name = f"{name}_{i - 1}"
        return name

    def get_name_scope(self) -> str:
        return self._name_stack

    @contextlib.contextmanager
    def name_scope(self, name: str | None) -> Iterator[str]:
        old = self._name_stack
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            new = self.unique_name(name)
        self._name_stack = new
        try:
            yield new + "/" if new else ""
        finally:
            self._name_stack = old

    # context ----------------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        context.STATE.graph_stack.append(self)
        try:
            yield self
        finally:
            context.STATE.graph_stack.pop()

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs: Any) -> Iterator[None]:
        if control_inputs is None:
            saved = self._control_stack
            self._control_stack = []
            try:
                yield
            finally:
                self._control_stack = saved
            return
        ops = []
        for c in control_inputs:
            if isinstance(c, Operation):
                ops.append(c)
            elif isinstance(c, SymbolicTensor):
                ops.append(c.op)
            elif hasattr(c, "_graph_op"):
                ops.append(c._graph_op())
        self._control_stack.append(ops)
        try:
            yield
        finally:
            self._control_stack.pop()

    def finalize(self) -> None:
        self._finalized = True

    @property
    def finalized(self) -> bool:
        return self._finalized

    # collections ------------------------------------------------------------
    def add_to_collection(self, name: str, value: Any) -> None:
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names: Any, value: Any) -> None:
        for n in [names] if isinstance(names, str) else names:
            self.add_to_collection(n, value)

    def get_collection_ref(self, name: str) -> list:
        return self._collections.setdefault(name, [])

    def get_collection(self, name: str, scope: str | None = None) -> list:
        items = list(self._collections.get(name, []))
        if scope is None:
            return items
        import re

        return [i for i in items if hasattr(i, "name") and re.match(scope, i.name)]

    def get_all_collection_keys(self) -> list[str]:
        return list(self._collections)

    # nodes ------------------------------------------------------------------
    def get_operations(self) -> list[Operation]:
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> Operation:
        return self._by_name[name]

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        op_name, _, idx = name.partition(":")
        return self._by_name[op_name].outputs[int(idx or 0)]

    def as_graph_element(self, obj: Any) -> Any:
        return obj

    def _new_slot(self, t: SymbolicTensor) -> int:
        self._slots.append(t)
        return len(self._slots) - 1

    def next_seed(self) -> int:
        self._seed_counter += 1
        return self._seed_counter - 1

    def capture(self, t: Any) -> SymbolicTensor:
        """Bring a tensor into this graph: eager values become constants."""
        if isinstance(t, SymbolicTensor):
            return t
        if isinstance(t, EagerTensor):
            cached = self._capture_cache.get(id(t))
            if cached is not None and cached._capture_src is t:  # type: ignore[attr-defined]
                return cached
            from runtime.ops.array import constant_in_graph

            c = constant_in_graph(self, t._value, t.dtype, "Const")
            c._capture_src = t  # type: ignore[attr-defined]
            self._capture_cache[id(t)] = c
            return c
        raise TypeError(f"Cannot use {t!r} as a graph tensor")

    def create_op(self, opdef: Any, inputs: list[SymbolicTensor], attrs: dict,
                  name: str | None = None) -> Operation:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        if name and name.endswith("/"):  # TF: a name scope's own name, taken as it is
            name = name[:-1]
            self._names_in_use.setdefault(name.lower(), 1)
        else:
            name = self.unique_name(name or opdef.name)
        control = [c for group in self._control_stack for c in group]
        op = Operation(self, opdef, inputs, attrs, name, control)
        self._ops.append(op)
        self._by_name[name] = op
        _make_outputs(op)
        if trace.recorder.values is not None:  # after _make_outputs: probes are not values
            op.fn = trace.recorder.values.wrap(op, op.fn)
        return op


_PROBE_FILL = (2, 3)


def probe_value(shape: TensorShape, dtype: dtypes.DType, which: int) -> np.ndarray:
    """A sample value for a tensor of unknown content: ones for floats, zeros otherwise."""
    dims = [] if shape.rank is None else [(_PROBE_FILL[which] if d is None else d) for d in shape]
    fill = 1 if dtype.is_floating or dtype.is_complex else 0
    if dtype == dtypes.string:
        return np.full(dims, b"", dtype=object)
    return np.full(dims, fill, dtype=dtype.np)


def _merge(sa: tuple, sb: tuple) -> TensorShape:
    if len(sa) != len(sb):
        return TensorShape(None)
    return TensorShape([a if a == b else None for a, b in zip(sa, sb)])


def _make_outputs(op: Operation) -> None:
    opdef = op.opdef
    inputs = op.inputs
    unknown_rank = any(t._shape.rank is None for t in inputs)
    if opdef.shape_fn is not None:
        specs = opdef.shape_fn(inputs, op.attrs)
        for i, (shape, dt) in enumerate(specs):
            t = SymbolicTensor(op, i, TensorShape(shape), dt)
            t._probe = (probe_value(t._shape, dt, 0), probe_value(t._shape, dt, 1))
            op.outputs.append(t)
        return
    results: list[Any] = []
    fn = opdef.probe(op.attrs) if opdef.probe is not None else op.fn
    if all(t._probe is not None for t in inputs):
        try:
            with np.errstate(all="ignore"):
                ra = fn(*[t._probe[0] for t in inputs])  # type: ignore[index]
                same = all(t._probe[0] is t._probe[1] for t in inputs)  # type: ignore[index]
                rb = ra if same else fn(*[t._probe[1] for t in inputs])  # type: ignore[index]
            if opdef.n_out == 1:
                ra, rb = (ra,), (rb,)
            results = [(np.asarray(a), np.asarray(b)) for a, b in zip(ra, rb)]
        except Exception:  # noqa: BLE001 - any kernel failure just means "shape unknown"
            results = []
    exact = not opdef.stateful and (all(t._exact for t in inputs) or (
        opdef.shape_only and all(t._shape.is_fully_defined() for t in inputs)))
    if results:
        for i, (a, b) in enumerate(results):
            shape = TensorShape(None) if unknown_rank and not opdef.shape_only else _merge(a.shape, b.shape)
            t = SymbolicTensor(op, i, shape, dtypes.as_dtype(a.dtype))
            t._probe = (a, b)
            t._exact = exact
            op.outputs.append(t)
        return
    n = opdef.n_out if isinstance(opdef.n_out, int) else opdef.n_out(op.attrs)
    dt = op.attrs.get("out_dtype") or (opdef.dtype_fn(inputs) if opdef.dtype_fn is not None
                                       else inputs[0].dtype if inputs else dtypes.float32)
    for i in range(n):
        op.outputs.append(SymbolicTensor(op, i, TensorShape(None), dt))


def constant_value(t: Any) -> Any:
    """The value of a tensor known at graph-construction time, else None (``tf.get_static_value``)."""
    if isinstance(t, EagerTensor):
        return t.numpy()
    if isinstance(t, SymbolicTensor):
        return t._probe[0] if t._exact and t._probe is not None else None
    if isinstance(t, Tensor):
        return None
    return np.asarray(t)
