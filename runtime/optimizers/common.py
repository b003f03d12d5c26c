"""One op per optimizer step: its kernel updates NumPy values in place of TF's fused kernels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from runtime import trace
from runtime.convert import convert_to_tensor
from runtime.ops.state import py_call

_NO_HYPERS: list = []


def step_op(grads: list, hypers: list, update: Callable[[list, list], None], traced: list,
            name: str | None = None, rule: Callable[[list], dict[str, Any]] | None = None) -> Any:
    """Add (or run, eagerly) the op that reports the step to the trace and applies ``update``.

    ``grads`` and ``hypers`` are tensors or Python values; the kernel gets them as arrays.
    ``rule(hypers)`` describes the update this step applies (``runtime.update_rules``).
    """
    g_ts = [convert_to_tensor(g) for g in grads]
    h_ts = [convert_to_tensor(h) for h in hypers]
    n = len(g_ts)

    recorder = trace.recorder

    def kernel(*arrays: np.ndarray) -> tuple:
        gs = [a if a.__class__ is np.ndarray else np.asarray(a) for a in arrays[:n]]
        hs = [np.asarray(a) for a in arrays[n:]] if len(arrays) > n else _NO_HYPERS
        if recorder.active:
            trace.optimizer_step(list(zip(gs, traced)), rule=rule(hs) if rule is not None and recorder.path else None)
        update(gs, hs)
        if recorder.path:
            trace.step_applied()
        return ()

    return py_call(kernel, g_ts + h_ts, [], name=name, writes=traced)


def minus_step(value: np.ndarray, step: Any) -> Any:
    """``value - step``, written into ``step`` when it is a fresh array of the result's shape
    (one allocation per update instead of two; same arithmetic). A scalar variable less a
    scalar step is NumPy scalar math: the same float operation without a ufunc call."""
    if step.__class__ is np.ndarray:
        if step.shape == value.shape and step.dtype == value.dtype:
            return np.subtract(value, step, out=step)
    elif value.ndim == 0:
        return value[()] - step
    return value - step


def times(g: Any, factor: Any) -> Any:
    """``g * factor``; for a scalar gradient and factor, as NumPy scalar math (same operation)."""
    if g.ndim == 0:
        g = g[()]
        if factor.__class__ is np.ndarray and factor.ndim == 0:
            factor = factor[()]
    return g * factor


def f32(x: Any, dtype: Any) -> Any:
    """A hyperparameter as a scalar of the variable's dtype (TF casts after converting)."""
    if x.__class__ is np.ndarray and x.dtype is dtype:
        return x[()]
    a = np.asarray(x)
    return (a if a.dtype == dtype else a.astype(dtype))[()]
