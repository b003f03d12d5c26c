"""Learning-rate decay: TF1 ``tf.train.*_decay`` and Keras 3 ``optimizers.schedules``.

Both compute the same float32 formulas (the rate's dtype; the step is cast to it), so one
function per schedule serves the TF1 tensor, the TF1 eager callable and the Keras schedule.
"""

from __future__ import annotations

from typing import Any

from runtime import context
from runtime.convert import convert_to_tensor
from runtime.keras.optimizers import LearningRateSchedule
from runtime.ops import math as M
from runtime.tensor import Tensor


def _start(lr: Any, step: Any, *params: Any) -> tuple:
    lr = convert_to_tensor(lr)
    return (lr, M.cast(step, lr.dtype), *[M.cast(p, lr.dtype) for p in params])


def exponential(lr: Any, step: Any, decay_steps: Any, decay_rate: Any, staircase: bool) -> Any:
    lr, s, n, rate = _start(lr, step, decay_steps, decay_rate)
    p = M.truediv(s, n)
    return M.multiply(lr, M.pow(rate, M.floor(p) if staircase else p))


def inverse_time(lr: Any, step: Any, decay_steps: Any, decay_rate: Any, staircase: bool) -> Any:
    lr, s, n, rate = _start(lr, step, decay_steps, decay_rate)
    p = M.truediv(s, n)
    return M.truediv(lr, M.add(1.0, M.multiply(rate, M.floor(p) if staircase else p)))


def natural_exp(lr: Any, step: Any, decay_steps: Any, decay_rate: Any, staircase: bool) -> Any:
    lr, s, n, rate = _start(lr, step, decay_steps, decay_rate)
    p = M.truediv(s, n)
    return M.multiply(lr, M.exp(M.negative(M.multiply(rate, M.floor(p) if staircase else p))))


def polynomial(lr: Any, step: Any, decay_steps: Any, end_lr: Any, power: Any, cycle: bool) -> Any:
    lr, s, n, end, pw = _start(lr, step, decay_steps, end_lr, power)
    if cycle:
        mult = M.where(M.equal(s, 0.0), M.ones_like(s), M.ceil(M.truediv(s, n)))
        n = M.multiply(n, mult)
    else:
        s = M.minimum(s, n)
    frac = M.subtract(1.0, M.truediv(s, n))
    return M.add(M.multiply(M.subtract(lr, end), M.pow(frac, pw)), end)


def piecewise(step: Any, boundaries: list, values: list) -> Any:
    """values[0] up to boundaries[0] (inclusive), ..., values[-1] after boundaries[-1]."""
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    vals = [convert_to_tensor(v) for v in values]
    x = convert_to_tensor(step)
    out = vals[-1]
    for b, v in zip(reversed(boundaries), reversed(vals[:-1])):
        out = M.where(M.less_equal(x, M.cast(b, x.dtype)), v, out)
    return out


def _tf1(fn: Any, step: Any, *args: Any) -> Any:
    """A tensor in graph mode; in eager mode TF returns a callable that reads the step when called."""
    if context.executing_eagerly():
        return lambda: fn(*args[:1], step, *args[1:])
    return fn(*args[:1], step, *args[1:])


def exponential_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Any:
    """``tf.compat.v1.train.exponential_decay``."""
    return _tf1(exponential, global_step, learning_rate, decay_steps, decay_rate, staircase)


def inverse_time_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                       staircase: bool = False, name: str | None = None) -> Any:
    """``tf.compat.v1.train.inverse_time_decay``."""
    return _tf1(inverse_time, global_step, learning_rate, decay_steps, decay_rate, staircase)


def natural_exp_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Any:
    """``tf.compat.v1.train.natural_exp_decay``."""
    return _tf1(natural_exp, global_step, learning_rate, decay_steps, decay_rate, staircase)


def polynomial_decay(learning_rate: Any, global_step: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                     power: Any = 1.0, cycle: bool = False, name: str | None = None) -> Any:
    """``tf.compat.v1.train.polynomial_decay``."""
    return _tf1(polynomial, global_step, learning_rate, decay_steps, end_learning_rate, power, cycle)


def piecewise_constant(x: Any, boundaries: list, values: list, name: str | None = None) -> Any:
    """``tf.compat.v1.train.piecewise_constant``."""
    if context.executing_eagerly():
        return lambda: piecewise(x, boundaries, values)
    return piecewise(x, boundaries, values)


class _Schedule(LearningRateSchedule):
    """A Keras schedule: ``schedule(step)`` is a float32 tensor; plain steps compute eagerly."""

    def __call__(self, step: Any) -> Any:
        if isinstance(step, Tensor) or hasattr(step, "_as_tensor"):
            return self._compute(step)
        with context.eager_mode():
            return self._compute(step)

    def _compute(self, step: Any) -> Any:
        raise NotImplementedError


class ExponentialDecay(_Schedule):
    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
                 name: str = "ExponentialDecay") -> None:
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def _compute(self, step: Any) -> Any:
        return exponential(self.initial_learning_rate, step, self.decay_steps, self.decay_rate, self.staircase)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class InverseTimeDecay(_Schedule):
    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
                 name: str = "InverseTimeDecay") -> None:
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def _compute(self, step: Any) -> Any:
        return inverse_time(self.initial_learning_rate, step, self.decay_steps, self.decay_rate, self.staircase)


class PolynomialDecay(_Schedule):
    def __init__(self, initial_learning_rate: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                 power: Any = 1.0, cycle: bool = False, name: str = "PolynomialDecay") -> None:
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = end_learning_rate, power, cycle, name

    def _compute(self, step: Any) -> Any:
        return polynomial(self.initial_learning_rate, step, self.decay_steps, self.end_learning_rate,
                          self.power, self.cycle)


class PiecewiseConstantDecay(_Schedule):
    def __init__(self, boundaries: list, values: list, name: str = "PiecewiseConstant") -> None:
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of values. "
                             f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                             f"values={values} of length {len(values)}.")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def _compute(self, step: Any) -> Any:
        return piecewise(step, self.boundaries, self.values)


TRAIN_V1 = {"exponential_decay": exponential_decay, "inverse_time_decay": inverse_time_decay,
            "natural_exp_decay": natural_exp_decay, "polynomial_decay": polynomial_decay,
            "piecewise_constant": piecewise_constant, "piecewise_constant_decay": piecewise_constant}
KERAS_SCHEDULES = {"ExponentialDecay": ExponentialDecay, "InverseTimeDecay": InverseTimeDecay,
                   "PolynomialDecay": PolynomialDecay, "PiecewiseConstantDecay": PiecewiseConstantDecay}
