"""TF1-only helpers exposed by ``tf.compat.v1`` (and the TF 1.x face)."""

from __future__ import annotations

from typing import Any

from runtime import context, shapes
from runtime.api_scopes import name_scope as _name_scope
from runtime.graph import GraphKeys
from runtime.ops import math as M
from runtime.variables import initializer_op


def disable_eager_execution() -> None:
    context.STATE.eager_enabled = False


def enable_eager_execution(config: Any = None, device_policy: Any = None, execution_mode: Any = None) -> None:
    context.STATE.eager_enabled = True


def disable_v2_behavior() -> None:
    disable_eager_execution()
    shapes.V1_DIMENSIONS = True


def enable_v2_behavior() -> None:
    enable_eager_execution()
    shapes.V1_DIMENSIONS = False


def executing_eagerly() -> bool:
    return context.executing_eagerly()


def executing_eagerly_outside_functions() -> bool:
    return context.STATE.eager_enabled


def _graph() -> Any:
    return context.get_default_graph()


def global_variables(scope: str | None = None) -> list:
    return [] if context.executing_eagerly() else _graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope: str | None = None) -> list:
    return [] if context.executing_eagerly() else _graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope: str | None = None) -> list:
    return [] if context.executing_eagerly() else _graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def global_variables_initializer() -> Any:
    return initializer_op(global_variables(), name="init")


def local_variables_initializer() -> Any:
    return initializer_op(local_variables(), name="init_1")


def variables_initializer(var_list: list, name: str = "init") -> Any:
    return initializer_op(var_list, name=name)


def get_collection(key: str, scope: str | None = None) -> list:
    return _graph().get_collection(key, scope)


def get_collection_ref(key: str) -> list:
    return _graph().get_collection_ref(key)


def add_to_collection(name: str, value: Any) -> None:
    _graph().add_to_collection(name, value)


def assign(ref: Any, value: Any, validate_shape: Any = None, use_locking: Any = None, name: str | None = None) -> Any:
    return ref.assign(value, name=name)


def assign_add(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    return ref.assign_add(value, name=name)


def assign_sub(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    return ref.assign_sub(value, name=name)


def name_scope(name: Any, default_name: Any = None, values: Any = None) -> Any:
    return _name_scope(name, default_name, values)


def to_float(x: Any, name: str = "ToFloat") -> Any:
    return M.cast(x, "float32", name=name)


def to_int32(x: Any, name: str = "ToInt32") -> Any:
    return M.cast(x, "int32", name=name)


def to_int64(x: Any, name: str = "ToInt64") -> Any:
    return M.cast(x, "int64", name=name)


def to_double(x: Any, name: str = "ToDouble") -> Any:
    return M.cast(x, "float64", name=name)


def set_random_seed(seed: Any) -> None:
    from runtime.ops.random import set_seed

    set_seed(seed)


def reset_default_graph() -> None:
    context.reset_default_graph()


def get_default_graph() -> Any:
    return context.get_default_graph()


def report_uninitialized_variables(var_list: Any = None, name: str = "report_uninitialized_variables") -> Any:
    from runtime.errors import Unsupported

    raise Unsupported("tf.compat.v1.report_uninitialized_variables")
