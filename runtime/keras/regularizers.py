"""Keras 3 weight regularizers (``tf.keras.regularizers``): L1, L2, L1L2 and ``get``."""

from __future__ import annotations

import inspect
import math
from typing import Any

from runtime.convert import convert_to_tensor
from runtime.keras import present_as_keras
from runtime.ops import math as M


def _validate(value: Any, name: str) -> float:
    if (not isinstance(value, (float, int))
            or math.isinf(value) or math.isnan(value) or value < 0):
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float."
                         f"Received: {name}={value}")
    return float(value)


def _as_tensor(x: Any) -> Any:
    return x._as_tensor() if hasattr(x, "_as_tensor") else convert_to_tensor(x)


class Regularizer:
    """Base class: ``regularizer(x)`` is a scalar penalty of ``x``'s dtype."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    @classmethod
    def from_config(cls, config: dict) -> Regularizer:
        return cls(**config)

    def get_config(self) -> dict:
        raise NotImplementedError(f"{self} does not implement get_config()")


class L1L2(Regularizer):
    """``l1 * sum(abs(x)) + l2 * sum(square(x))``, each term only when its factor is non-zero."""

    def __init__(self, l1: Any = 0.0, l2: Any = 0.0) -> None:
        self.l1 = _validate(0.0 if l1 is None else l1, "l1")
        self.l2 = _validate(0.0 if l2 is None else l2, "l2")

    def __call__(self, x: Any) -> Any:
        x = _as_tensor(x)
        reg = convert_to_tensor(0.0, dtype=x.dtype)
        if self.l1 != 0.0:
            reg = M.add(reg, M.multiply(M.cast(self.l1, x.dtype), M.reduce_sum(M.abs(x))))
        if self.l2 != 0.0:
            reg = M.add(reg, M.multiply(M.cast(self.l2, x.dtype), M.reduce_sum(M.square(x))))
        return reg

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """``l1 * sum(abs(x))``; Keras keeps the factor as a float32 tensor."""

    def __init__(self, l1: Any = 0.01) -> None:
        self.l1 = convert_to_tensor(_validate(0.01 if l1 is None else l1, "l1"))

    def __call__(self, x: Any) -> Any:
        x = _as_tensor(x)
        return M.multiply(M.cast(self.l1, x.dtype), M.reduce_sum(M.abs(x)))

    def get_config(self) -> dict:
        return {"l1": float(self.l1.numpy())}


class L2(Regularizer):
    """``l2 * sum(square(x))``."""

    def __init__(self, l2: Any = 0.01) -> None:
        self.l2 = _validate(0.01 if l2 is None else l2, "l2")

    def __call__(self, x: Any) -> Any:
        x = _as_tensor(x)
        return M.multiply(M.cast(self.l2, x.dtype), M.reduce_sum(M.square(x)))

    def get_config(self) -> dict:
        return {"l2": self.l2}


_BY_NAME: dict[str, type] = {"Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2,
                             "regularizer": Regularizer, "l1": L1, "l2": L2, "l1l2": L1L2}


def serialize(regularizer: Any) -> Any:
    if regularizer is None:
        return None
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}


def deserialize(config: Any, custom_objects: Any = None) -> Any:
    if isinstance(config, str):
        cls = (custom_objects or {}).get(config) or _BY_NAME.get(config)
        return cls() if inspect.isclass(cls) else cls
    name = config.get("class_name")
    cls = (custom_objects or {}).get(name) or _BY_NAME.get(name)
    if cls is None:
        raise TypeError(f"Could not locate class '{name}'. Make sure custom classes are decorated with "
                        "`@keras.saving.register_keras_serializable()`.")
    return cls.from_config(config.get("config", {}))


def get(identifier: Any) -> Any:
    """Keras 3 ``regularizers.get``: None, a config dict, a class/snake name, or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = _BY_NAME.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")


#: ``tf.keras.regularizers``; the lowercase names are the same classes, as in Keras 3.
TABLE = {"Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2, "l1_l2": L1L2,
         "get": get, "serialize": serialize, "deserialize": deserialize}

present_as_keras({Regularizer: "regularizers.regularizers", L1: "regularizers.regularizers",
                  L2: "regularizers.regularizers", L1L2: "regularizers.regularizers"})
