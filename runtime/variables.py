"""tf.Variable with TF2 resource semantics (also used for TF1 graph variables)."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes, trace
from runtime.errors import FailedPreconditionError
from runtime.initializers import InitialDraw
from runtime.shapes import TensorShape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, numpy_text

SINGLETON_ERROR = ("tf.function only supports singleton tf.Variables created on the first call. "
                   "Make sure the tf.Variable is only created once or created outside tf.function. "
                   "See https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


class TracedValue:
    """What the trace recorder sees of a variable: its key and current value."""

    def __init__(self, var: Variable, path: str | None = None) -> None:
        self.var = var
        self.name = var.name
        self.trainable = var.trainable
        if path is not None:
            self.path = path

    def numpy(self) -> np.ndarray:
        v = self.var._value
        return np.full(self.var.shape.as_list(), np.nan) if v is None else v


def _initial_array(initial_value: Any, dtype: dtypes.DType | None) -> tuple[Any, Any]:
    """Return (array or None, symbolic tensor or None) for an initial value."""
    from runtime.convert import convert_to_tensor

    if callable(initial_value) and not isinstance(initial_value, Tensor):
        with context.init_scope():
            initial_value = initial_value()
    if isinstance(initial_value, SymbolicTensor):
        from runtime.graph import constant_value

        c = constant_value(initial_value)
        if c is not None and initial_value.graph.is_function:
            return np.asarray(c), None
        return None, initial_value
    if isinstance(initial_value, EagerTensor):
        arr = initial_value._value
        if dtype is not None and arr.dtype != dtype.np:
            arr = arr.astype(dtype.np)
        return arr, None
    if hasattr(initial_value, "_as_tensor"):
        return _initial_array(initial_value._as_tensor(), dtype)
    with context.eager_mode():
        t = convert_to_tensor(initial_value, dtype=dtype)
    return t._value, None


_WRITES = frozenset({"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"})


def _refuse_updated_source(initial_value: Any) -> None:
    """A variable a tf.function creates from a variable it has already written in this trace.

    TF 2.21 lifts such an initializer out of the function only when it reads nothing the
    function changed before it: otherwise it is computed in place on the first call and takes
    the updated value (`v2 = tf.Variable(v)` after `v.assign_add(1)` starts at v + 1). The
    engine computes every initializer before the body, so it refuses the case it would get wrong."""
    engine_var = getattr(initial_value, "_engine_variable", initial_value)
    sources = [engine_var] if isinstance(engine_var, Variable) else []
    if isinstance(initial_value, SymbolicTensor):
        todo, seen = [initial_value.op], set()
        while todo:
            op = todo.pop()
            if id(op) in seen:
                continue
            seen.add(id(op))
            if op.type == "ReadVariableOp":
                sources.append(op.attrs["var"])
            todo.extend(t.op for t in op.inputs)
    if not sources:
        return
    graph = context.get_default_graph()
    written = {id(getattr(v, "_engine_variable", v)) for op in graph.get_operations()
               for v in ([op.attrs.get("var")] if op.type in _WRITES else op.attrs.get("writes", ()))}
    if any(id(v) in written for v in sources):
        from runtime.errors import Unsupported

        raise Unsupported("a tf.function creating a variable from a variable it updated before in the same call")


class Variable:
    """A mutable tensor. Reads and writes are ops, so they work eagerly, in graphs and in plans."""

    def __init__(self, initial_value: Any = None, trainable: Any = None, validate_shape: bool = True,
                 caching_device: Any = None, name: str | None = None, variable_def: Any = None,
                 dtype: Any = None, import_scope: Any = None, constraint: Any = None,
                 synchronization: Any = None, aggregation: Any = None, shape: Any = None,
                 use_resource: Any = None, collections: Any = None, expected_shape: Any = None,
                 experimental_enable_variable_lifting: bool = True,
                 _absolute_name: bool = False, _trace_path: str | None = None,
                 _report: bool = True) -> None:
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified.")
        trace_ctx = context.current_trace()
        if trace_ctx is not None and not trace_ctx.may_create_variables:
            raise ValueError(SINGLETON_ERROR)
        if trace_ctx is not None:
            _refuse_updated_source(initial_value)
        dt = None if dtype is None else dtypes.as_dtype(dtype)
        self.trainable = True if trainable is None else bool(trainable)
        self.constraint = constraint
        with context.init_scope():
            eager = context.executing_eagerly()
            if eager and callable(initial_value) and not isinstance(initial_value, Tensor):
                initial_value = initial_value()
            if eager and isinstance(initial_value, InitialDraw):
                initial_value.draw(None if name is None else _eager_full_name(name, _absolute_name))
            arr, sym = _initial_array(initial_value, dt)
            graph = None if eager else context.get_default_graph()
        if trace_ctx is not None:
            trace_ctx.created_variables.append(self)
        if arr is not None:
            arr = np.asarray(arr)
            self._dtype = dt or dtypes.as_dtype(arr.dtype)
            if arr.dtype != self._dtype.np:
                arr = arr.astype(self._dtype.np)
            self._shape = TensorShape(arr.shape if shape is None else shape)
        else:
            self._dtype = dt or sym.dtype  # type: ignore[union-attr]
            self._shape = TensorShape(sym.shape if shape is None else shape)  # type: ignore[union-attr]
        base = name or "Variable"
        self._graph = graph
        self._value: np.ndarray | None = None
        self._initial_tensor: Any = None
        if eager:
            self._name = _eager_full_name(base, _absolute_name) + ":0"
            self._value = arr
            self.initializer = None
        else:
            if _absolute_name:
                unique = base
                graph._names_in_use[base.lower()] = graph._names_in_use.get(base.lower(), 0) + 1  # type: ignore[union-attr]
            else:
                unique = graph.unique_name(base)  # type: ignore[union-attr]
            self._name = unique + ":0"
            # init_scope semantics: a variable's initializer ignores enclosing control dependencies
            with graph.as_default(), graph.name_scope(unique + "/"), graph.control_dependencies(None):  # type: ignore[union-attr]
                from runtime.convert import convert_to_tensor
                from runtime.ops.registry import apply

                if sym is not None:
                    init = sym
                else:
                    with graph.name_scope("Initializer"):  # type: ignore[union-attr]
                        init = convert_to_tensor(arr, dtype=self._dtype, name="initial_value")
                self._initial_tensor = init
                with graph.control_dependencies(None):  # type: ignore[union-attr]
                    self.initializer = apply("AssignVariableOp", [init], {"var": self}, name="Assign").op
            from runtime.graph import GraphKeys

            cols = collections if collections is not None else [GraphKeys.GLOBAL_VARIABLES]
            for c in cols:
                graph.add_to_collection(c, self)  # type: ignore[union-attr]
            if self.trainable and GraphKeys.TRAINABLE_VARIABLES not in cols:
                graph.add_to_collection(GraphKeys.TRAINABLE_VARIABLES, self)  # type: ignore[union-attr]
        if _report:
            trace.variable_created(TracedValue(self, _trace_path))

    # --- state -------------------------------------------------------------------------------
    def _read(self) -> np.ndarray:
        v = self._value
        if v is None:
            raise FailedPreconditionError(
                None, None,
                f"Could not find variable {self._name[:-2]}. This could mean that the variable has "
                "been deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
                f"container=localhost, status error message=Resource localhost/{self._name[:-2]}/"
                "class tensorflow::Var does not exist.")
        return v

    def _assign_array(self, x: np.ndarray) -> np.ndarray:
        if x.__class__ is not np.ndarray:
            x = np.asarray(x)
        np_dtype = self._dtype.np
        if x.dtype is not np_dtype and x.dtype != np_dtype:
            x = x.astype(np_dtype)
        value = self._value
        if value is not None and x.shape != value.shape and self._shape.is_fully_defined():
            from runtime.errors import invalid_argument

            raise invalid_argument(
                f"Cannot update variable with shape {list(self._value.shape)} using a Tensor with "
                f"shape {list(x.shape)}, shapes must be equal.")
        self._value = x
        return x

    # --- properties ----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    @property
    def op(self) -> Any:
        return self.initializer

    @property
    def graph(self) -> Any:
        return self._graph

    @property
    def device(self) -> str:
        return ""

    @property
    def initial_value(self) -> Any:
        return self._initial_tensor

    @property
    def handle(self) -> Any:
        return self

    def initialized_value(self) -> Any:
        return self._as_tensor()

    # --- reads -----------------------------------------------------------------------------------
    def _as_tensor(self) -> Tensor:
        from runtime.ops.registry import apply

        return apply("ReadVariableOp", [], {"var": self}, name="ReadVariableOp")

    def value(self) -> Tensor:
        return self._as_tensor()

    def read_value(self) -> Tensor:
        return self._as_tensor()

    def numpy(self) -> Any:
        if not context.executing_eagerly() and self._graph is not None:
            raise NotImplementedError("numpy() is only available when eager execution is enabled.")
        v = self._read()
        return v[()] if v.ndim == 0 else v.copy()

    def eval(self, session: Any = None) -> Any:
        from runtime.session import default_session_for

        return default_session_for(self._graph, session).run(self)

    def _graph_op(self) -> Any:
        return self.initializer

    # --- writes ----------------------------------------------------------------------------------
    def _write(self, kind: str, value: Any, read_value: bool, name: str | None) -> Any:
        from runtime.convert import convert_to_tensor
        from runtime.ops.registry import apply

        v = convert_to_tensor(value, dtype=self._dtype) if not isinstance(value, Tensor) and not hasattr(
            value, "_as_tensor") else convert_to_tensor(value)
        if v.dtype != self._dtype:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {self._dtype.name}")
        if (kind == "AssignVariableOp" and v.shape.rank is not None and self._shape.rank is not None
                and not v.shape.is_compatible_with(self._shape)):
            raise ValueError(f"Cannot assign value to variable ' {self._name} ': Shape mismatch."
                             f"The variable shape {self._shape}, and the assigned value shape "
                             f"{v.shape} are incompatible.")
        from runtime.control_flow import COND_GATES, cond_gate

        if COND_GATES and not context.executing_eagerly():
            # A write in a graph-mode cond branch: both branches are built, so the write runs
            # only when its branch is taken (the op takes the branch's predicate as a gate).
            out = apply(kind, [v, cond_gate()], {"var": self, "gated": True}, name=name)
            return out if read_value else out.op
        out = apply(kind, [v], {"var": self}, name=name)
        if isinstance(out, EagerTensor):
            return self if read_value else None
        return out if read_value else out.op

    def assign(self, value: Any, use_locking: Any = None, name: str | None = None, read_value: bool = True) -> Any:
        return self._write("AssignVariableOp", value, read_value, name)

    def assign_add(self, delta: Any, use_locking: Any = None, name: str | None = None, read_value: bool = True) -> Any:
        return self._write("AssignAddVariableOp", delta, read_value, name)

    def assign_sub(self, delta: Any, use_locking: Any = None, name: str | None = None, read_value: bool = True) -> Any:
        return self._write("AssignSubVariableOp", delta, read_value, name)

    def load(self, value: Any, session: Any = None) -> None:
        self._assign_array(np.asarray(value, dtype=self._dtype.np))

    # --- Python protocol ------------------------------------------------------------------------
    def __repr__(self) -> str:
        if self._graph is None and self._value is not None:
            return f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}, numpy={numpy_text(self._value, is_repr=True)}>"
        return f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}>"

    __str__ = __repr__

    def __hash__(self) -> int:
        if context.STATE.eager_enabled:
            raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. "
                            f"(Variable: {self!r})")
        return id(self)

    def __eq__(self, other: object) -> Any:  # type: ignore[override]
        if context.STATE.eager_enabled:
            from runtime.ops.math import equal

            return equal(self._as_tensor(), other)
        return self is other

    def __ne__(self, other: object) -> Any:  # type: ignore[override]
        if context.STATE.eager_enabled:
            from runtime.ops.math import not_equal

            return not_equal(self._as_tensor(), other)
        return self is not other

    def ref(self) -> Any:
        from runtime.tensor import TensorRef

        return TensorRef(self)  # type: ignore[arg-type]

    experimental_ref = ref

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        v = self._read()
        return v if dtype is None else v.astype(dtype)

    def __float__(self) -> float:
        return float(self._read())

    def __int__(self) -> int:
        return int(self._read())

    def __index__(self) -> int:
        return int(self._read())

    def __bool__(self) -> bool:
        return bool(self._read()) if self._graph is None else True

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        return format(self.numpy(), spec)

    def __len__(self) -> int:
        return self._shape[0]

    def __iter__(self) -> Any:
        return iter(self._as_tensor())


class ResourceVariable(Variable):
    """The concrete class of every variable, as in TF 2."""


def _new_variable(cls: type, *args: Any, **kwargs: Any) -> Any:
    return object.__new__(ResourceVariable if cls is Variable else cls)


Variable.__new__ = _new_variable  # type: ignore[method-assign]
Variable.__module__ = "tensorflow.python.ops.variables"
ResourceVariable.__module__ = "tensorflow.python.ops.resource_variable_ops"


def _eager_name_scope() -> str:
    from runtime.api_scopes import eager_scope_prefix

    return eager_scope_prefix()


def _eager_full_name(base: str, absolute: bool) -> str:
    scope = _eager_name_scope()
    return base if absolute or not scope else scope + base


def _binop(name: str) -> Any:
    def method(self: Variable, *args: Any) -> Any:
        return getattr(self._as_tensor(), name)(*args)

    method.__name__ = name
    return method


for _m in ["__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
           "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
           "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__abs__", "__lt__", "__le__",
           "__gt__", "__ge__", "__getitem__", "__and__", "__or__", "__invert__"]:
    setattr(Variable, _m, _binop(_m))


def is_variable(x: Any) -> bool:
    return isinstance(x, Variable)


def all_graph_variables(graph: Any) -> list[Variable]:
    from runtime.graph import GraphKeys

    return graph.get_collection(GraphKeys.GLOBAL_VARIABLES)


def initializer_op(var_list: list, name: str = "init") -> Any:
    """``tf.variables_initializer``: a NoOp depending on each variable's initializer."""
    from runtime.ops.state import group

    if context.executing_eagerly():
        return None
    inits = [v.initializer for v in var_list if getattr(v, "initializer", None) is not None]
    return group(*inits, name=name)
