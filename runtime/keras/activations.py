"""Keras activation lookup by name."""

from __future__ import annotations

from typing import Any

from runtime.ops import math as M
from runtime.ops import nn as N


def linear(x: Any) -> Any:
    return x


TABLE = {
    "relu": M.relu, "sigmoid": M.sigmoid, "tanh": M.tanh, "softmax": N.softmax, "linear": linear,
    "elu": M.elu, "selu": M.selu, "softplus": M.softplus, "softsign": M.softsign, "relu6": M.relu6,
    "exponential": M.exp, "log_softmax": N.log_softmax, "leaky_relu": M.leaky_relu,
}


def get(identifier: Any) -> Any:
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier not in TABLE:
            raise ValueError(f"Could not interpret activation function identifier: {identifier}")
        return TABLE[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")
