"""TF1 variable scopes and ``get_variable`` with TF's reuse rules and error messages."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from runtime import context, dtypes, initializers
from runtime.shapes import TensorShape
from runtime.tensor import Tensor
from runtime.variables import Variable


class _AutoReuse:
    def __repr__(self) -> str:
        return "_ReuseMode.AUTO_REUSE"


AUTO_REUSE = _AutoReuse()


class VariableScope:
    """A variable scope: a name prefix plus reuse flag and defaults."""

    def __init__(self, reuse: Any, name: str = "", initializer: Any = None, regularizer: Any = None,
                 caching_device: Any = None, partitioner: Any = None, custom_getter: Any = None,
                 name_scope: str = "", dtype: Any = dtypes.float32, use_resource: Any = None,
                 constraint: Any = None) -> None:
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.regularizer = regularizer
        self.dtype = dtypes.as_dtype(dtype)
        self.original_name_scope = name_scope
        self.caching_device = caching_device
        self.partitioner = partitioner
        self.custom_getter = custom_getter
        self.use_resource = use_resource
        self.constraint = constraint

    def reuse_variables(self) -> None:
        self.reuse = True

    def set_initializer(self, initializer: Any) -> None:
        self.initializer = initializer

    def get_variable(self, var_store: Any, name: str, *args: Any, **kwargs: Any) -> Variable:
        return get_variable(name, *args, **kwargs)


_SCOPES: list[VariableScope] = []


def _root() -> VariableScope:
    return VariableScope(False)


def get_variable_scope() -> VariableScope:
    return _SCOPES[-1] if _SCOPES else _ROOT


_ROOT = _root()


def _store() -> dict:
    if context.executing_eagerly():
        return _EAGER_STORE
    g = context.get_default_graph()
    if not hasattr(g, "_var_store"):
        g._var_store = {}  # type: ignore[attr-defined]
    return g._var_store  # type: ignore[attr-defined]


_EAGER_STORE: dict = {}


@contextlib.contextmanager
def variable_scope(name_or_scope: Any = None, default_name: str | None = None, values: Any = None,
                   initializer: Any = None, regularizer: Any = None, caching_device: Any = None,
                   partitioner: Any = None, custom_getter: Any = None, reuse: Any = None,
                   dtype: Any = None, use_resource: Any = None, constraint: Any = None,
                   auxiliary_name_scope: bool = True) -> Iterator[VariableScope]:
    """``tf.compat.v1.variable_scope``: prefix names; ``reuse`` is inherited once set."""
    from runtime.api_scopes import name_scope

    parent = get_variable_scope()
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    if not (reuse is True or reuse is False or reuse is None or reuse is AUTO_REUSE):
        raise ValueError("The reuse parameter must be True or False or None.")
    if name_or_scope is None and reuse:
        raise ValueError("reuse=True cannot be used without a name_or_scope")
    if isinstance(name_or_scope, VariableScope):
        full = name_or_scope.name
        short = full.rsplit("/", 1)[-1]
        base_reuse = name_or_scope.reuse
        ns = name_or_scope.original_name_scope
    else:
        if name_or_scope is not None:
            short = str(name_or_scope)
        else:
            short = _unique_scope_name(parent, default_name)  # type: ignore[arg-type]
        full = parent.name + "/" + short if parent.name else short
        base_reuse = parent.reuse
        ns = None
    new_reuse = reuse if reuse is True or reuse is AUTO_REUSE else (base_reuse or parent.reuse)
    scope = VariableScope(new_reuse, full,
                          initializer if initializer is not None else parent.initializer,
                          regularizer if regularizer is not None else parent.regularizer,
                          dtype=dtype if dtype is not None else parent.dtype,
                          constraint=constraint)
    _SCOPES.append(scope)
    _scope_counts(parent).setdefault(short, 0)
    _scope_counts(parent)[short] += 1
    reentered = _count_snapshot() if isinstance(name_or_scope, VariableScope) else None
    try:
        if auxiliary_name_scope:
            with name_scope(ns if ns else short) as ns_name:
                scope.original_name_scope = ns_name
                yield scope
        else:
            yield scope
    finally:
        _SCOPES.pop()
        _close_subscopes(full, reentered)


def _count_snapshot() -> dict:
    return {k: dict(v) for k, v in _store().items() if isinstance(k, tuple) and k[0] == "__scope_counts__"}


def _close_subscopes(full: str, snapshot: dict | None) -> None:
    """TF on leaving a scope: default names under it start afresh (a scope re-entered by name,
    e.g. with reuse=True, names its cells and layers as the first time); a scope object
    re-entered restores the counts it found."""
    store = _store()
    if snapshot is not None:
        for key in [k for k in store if isinstance(k, tuple) and k[0] == "__scope_counts__"]:
            del store[key]
        store.update(snapshot)
        return
    for key, counts in store.items():
        if isinstance(key, tuple) and key[0] == "__scope_counts__" and (
                key[1] == full or key[1].startswith(full + "/")):
            for name in counts:
                counts[name] = 0


def _scope_counts(parent: VariableScope) -> dict:
    store = _store()
    return store.setdefault(("__scope_counts__", parent.name), {})


def _unique_scope_name(parent: VariableScope, default: str) -> str:
    """TF's rule: the first free of ``default``, ``default_1``, ``default_2``...; every opened name counts."""
    counts = _scope_counts(parent)
    if not counts.get(default):
        return default
    idx = 1
    while counts.get(f"{default}_{idx}"):
        idx += 1
    return f"{default}_{idx}"


def _resolve_initializer(initializer: Any, dt: dtypes.DType, name: str) -> Any:
    if initializer is None:
        if dt.is_floating:
            return initializers.GlorotUniform()
        if dt.is_integer or dt.is_bool or dt == dtypes.string:
            return initializers.Zeros()
        raise ValueError(f"An initializer for variable {name} of {dt!r} is required")
    if isinstance(initializer, type):
        return initializer()
    return initializer


def get_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                 regularizer: Any = None, trainable: Any = None, collections: Any = None,
                 caching_device: Any = None, partitioner: Any = None, validate_shape: bool = True,
                 use_resource: Any = None, custom_getter: Any = None, constraint: Any = None,
                 synchronization: Any = None, aggregation: Any = None) -> Variable:
    """``tf.compat.v1.get_variable``: create ``scope/name`` or return it under reuse."""
    scope = get_variable_scope()
    full = scope.name + "/" + name if scope.name else name
    store = _store()
    shp = None if shape is None else TensorShape(shape)
    if full in store:
        if scope.reuse is False:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        var = store[full]
        if shp is not None and not shp.is_compatible_with(var.shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape {shp} and found "
                             f"shape {var.shape}.")
        if dtype is not None and dtypes.as_dtype(dtype) != var.dtype:
            raise ValueError(f"Trying to share variable {full}, but specified dtype {dtypes.as_dtype(dtype).name} "
                             f"and found dtype {var.dtype.name}.")
        return var
    if scope.reuse is True:
        raise ValueError(f"Variable {full} does not exist, or was not created with tf.get_variable(). "
                         "Did you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    init = initializer if initializer is not None else scope.initializer
    if isinstance(init, (Tensor, np.ndarray, list, float, int)) and not callable(init):
        value: Any = init
        if shp is not None and validate_shape and isinstance(init, Tensor) and not shp.is_compatible_with(init.shape):
            raise ValueError("If initializer is a constant, do not specify shape.")
        dt = dtypes.as_dtype(dtype) if dtype is not None else None
    else:
        dt = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype
        if shp is None:
            raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but instead was {shp}.")
        if not shp.is_fully_defined():
            raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but instead was {shp}.")
        init_obj = _resolve_initializer(init, dt, full)
        dims = tuple(shp.as_list())
        if isinstance(init_obj, initializers.Initializer):
            value = init_obj.draw(dims, dt, full)
        else:
            def value() -> Any:
                try:
                    return init_obj(dims, dtype=dt, partition_info=None)
                except TypeError:
                    return init_obj(dims, dtype=dt)
    from runtime.graph import GraphKeys

    cols = collections
    if cols is None and not context.executing_eagerly():
        cols = [GraphKeys.GLOBAL_VARIABLES]
    var = Variable(value, trainable=trainable, name=full, dtype=dt, collections=cols, _absolute_name=True)
    store[full] = var
    if regularizer is None:
        regularizer = scope.regularizer
    if regularizer is not None and not context.executing_eagerly():
        with context.get_default_graph().name_scope(full + "/Regularizer/"):
            loss = regularizer(var._as_tensor())
        if loss is not None:
            context.get_default_graph().add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return var
