"""Keras 3 optimizers with Keras's own update formulas (reference §3.3.2)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from runtime import dtypes
from runtime.gradients import engine_variable
from runtime.keras import present_as_keras
from runtime.keras.variables import KerasVariable, make_variable
from runtime.optimizers.common import minus_step, step_op, times
from runtime.update_rules import update_rule

_NAME_COUNTS: dict[str, int] = {}


def _snake(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def _unique(base: str) -> str:
    n = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


class LearningRateSchedule:
    """``tf.keras.optimizers.schedules.LearningRateSchedule``."""

    def __call__(self, step: Any) -> Any:
        raise NotImplementedError


class Optimizer:
    """Keras 3 base optimizer: builds slots on first apply, then only accepts those variables."""

    def __init__(self, learning_rate: Any = 0.001, weight_decay: Any = None, clipnorm: Any = None,
                 clipvalue: Any = None, global_clipnorm: Any = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: Any = None,
                 loss_scale_factor: Any = None, gradient_accumulation_steps: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        self.name = _unique(_snake(name) if name else _snake(type(self).__name__))
        if clipnorm is not None or clipvalue is not None or global_clipnorm is not None or weight_decay:
            from runtime.errors import Unsupported

            raise Unsupported("Keras optimizer clipnorm/clipvalue/global_clipnorm/weight_decay")
        self._iterations = make_variable(np.int64(0), "iteration", f"{self.name}/iteration", False,
                                         report=False)
        self._schedule = None
        if isinstance(learning_rate, LearningRateSchedule) or (callable(learning_rate) and not isinstance(learning_rate, (float, int))):
            self._schedule = learning_rate
            lr_value = 0.0
        elif isinstance(learning_rate, float):
            lr_value = learning_rate
        else:
            raise ValueError(  # noqa: TRY004 - Keras raises ValueError here
                "Argument `learning_rate` should be float, or an instance of LearningRateSchedule, "
                f"or a callable (that takes in the current iteration value and returns the "
                f"corresponding learning rate value). Received instead: learning_rate={learning_rate}")
        self._learning_rate = make_variable(np.float32(lr_value), "learning_rate",
                                            f"{self.name}/learning_rate", False, report=False)
        self._built = False
        self._var_index: dict[int, int] = {}
        self._slot_vars: list[KerasVariable] = []

    # --- public state -------------------------------------------------------------------------
    @property
    def iterations(self) -> KerasVariable:
        return self._iterations

    @property
    def learning_rate(self) -> Any:
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        self._learning_rate.assign(value)

    @property
    def variables(self) -> list:
        return [self._iterations, self._learning_rate] + self._slot_vars

    def _slot_name(self, var: Any, slot: str) -> str:
        path = getattr(var, "path", None)
        base = path.replace("/", "_") if path else var.name.replace(":", "_").replace("/", "_")
        return f"{base}_{slot}"

    def add_variable_from_reference(self, reference_variable: Any, name: str, initializer: Any = "zeros") -> KerasVariable:
        ev = engine_variable(reference_variable)
        value = np.zeros(ev.shape.as_list(), dtype=ev.dtype.np)
        if initializer == "ones":
            value = np.ones_like(value)
        slot_name = self._slot_name(reference_variable, name)
        v = make_variable(value, slot_name, f"{self.name}/{slot_name}", False, report=False)
        self._slot_vars.append(v)
        return v

    def build(self, var_list: list) -> None:
        if self._built:  # every Keras 3 optimizer's build returns early once built
            return
        for i, v in enumerate(var_list):
            self._var_index[id(engine_variable(v))] = i
        self._slots: list[dict[str, KerasVariable]] = [self._make_slots(v) for v in var_list]
        self._built = True

    def _make_slots(self, var: Any) -> dict[str, KerasVariable]:
        return {}

    # --- applying -------------------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars: Any) -> KerasVariable:
        pairs = list(grads_and_vars)
        grads = [g for g, _ in pairs]
        variables = [v for _, v in pairs]
        return self.apply(grads, variables)

    def apply(self, grads: Any, trainable_variables: Any = None) -> KerasVariable:
        grads = list(grads)
        variables = list(trainable_variables)
        if not self._built:
            self.build(variables)
        for v in variables:
            if id(engine_variable(v)) not in self._var_index:
                raise ValueError(
                    f"Unknown variable: {v}. This optimizer can only be called for the variables it was "
                    "originally built with. When working with a new set of variables, you should recreate "
                    "a new optimizer instance.")
        live = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not live:
            raise ValueError("No gradients provided for any variable.")
        slots = [self._slots[self._var_index[id(engine_variable(v))]] for _, v in live]
        evars = [engine_variable(v) for _, v in live]
        for ev in evars:
            if not ev.dtype.is_floating:
                from runtime.errors import invalid_argument

                raise invalid_argument(f"Value for attr 'T' of {ev.dtype.name} is not in the list of allowed values")

        np_dtypes = [ev.dtype.np for ev in evars]

        def update(gs: list, _hs: list) -> None:
            lr_var = self._learning_rate._engine_variable
            it = self._iterations._engine_variable
            if self._schedule is not None:
                lr_var._assign_array(self._scheduled_rate())
            lr = lr_var._value
            step = it._value
            for ev, dt, g, s in zip(evars, np_dtypes, gs, slots):
                # Most steps need no cast: an identity check is cheaper than astype(copy=False).
                self._update(ev, g if g.dtype is dt else g.astype(dt), lr if lr.dtype is dt else lr.astype(dt), s, step)
            it._assign_array(it._value[()] + 1)  # scalar math: the same int64 add

        step_op([g for g, _ in live], [], update, [v for _, v in live], name=self.name,
                rule=lambda _hs: self._rule(self._step_rate()))
        return self._iterations

    def _scheduled_rate(self) -> np.float32:
        """Keras 3 calls a schedule with the step, a plain callable bare."""
        it = self._iterations._engine_variable
        rate = self._schedule(it._value) if isinstance(self._schedule, LearningRateSchedule) else self._schedule()
        return np.float32(np.asarray(_eager_value(rate)))

    def _step_rate(self) -> Any:
        """The learning rate the coming step applies."""
        if self._schedule is not None:
            return self._scheduled_rate()
        return self._learning_rate._engine_variable._value

    def _update(self, var: Any, g: np.ndarray, lr: np.ndarray, slots: dict, iteration: np.ndarray) -> None:
        raise NotImplementedError

    def _rule(self, lr: Any) -> dict[str, Any]:
        """This step's update rule (``common.update_rule``)."""
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"name": self.name, "learning_rate": float(self._learning_rate._engine_variable._value)}


def _eager_value(x: Any) -> Any:
    return x.numpy() if hasattr(x, "numpy") else x


def _c(x: float, dt: Any) -> Any:
    return np.asarray(x, dtype=dt)[()]


class SGD(Optimizer):
    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum, self.nesterov = momentum, nesterov

    def _make_slots(self, var: Any) -> dict:
        return {"m": self.add_variable_from_reference(var, "momentum")} if self.momentum != 0 else {}

    def _rule(self, lr: Any) -> dict[str, Any]:
        return update_rule("sgd", lr, momentum=self.momentum, nesterov=self.nesterov)

    def _update(self, var: Any, g: np.ndarray, lr: np.ndarray, slots: dict, iteration: np.ndarray) -> None:
        if "m" in slots:
            m = slots["m"]._engine_variable
            mu = _c(self.momentum, g.dtype)
            mv = m._value * mu - g * lr
            m._assign_array(mv)
            if self.nesterov:
                var._assign_array(var._value + (mv * mu - g * lr))
            else:
                var._assign_array(var._value + mv)
        else:
            var._assign_array(minus_step(var._value, times(g, lr)))


class Adam(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def _make_slots(self, var: Any) -> dict:
        s = {"m": self.add_variable_from_reference(var, "momentum"),
             "v": self.add_variable_from_reference(var, "velocity")}
        if self.amsgrad:
            s["vhat"] = self.add_variable_from_reference(var, "velocity_hat")
        return s

    def _rule(self, lr: Any) -> dict[str, Any]:
        return update_rule("adam", lr, beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon,
                           amsgrad=self.amsgrad)

    def _update(self, var: Any, g: np.ndarray, lr: np.ndarray, slots: dict, iteration: np.ndarray) -> None:
        dt = g.dtype
        step = np.asarray(iteration + 1).astype(dt)
        b1p = np.power(_c(self.beta_1, dt), step)
        b2p = np.power(_c(self.beta_2, dt), step)
        one = dt.type(1)
        alpha = lr * np.sqrt(one - b2p) / (one - b1p)
        m, v = slots["m"]._engine_variable, slots["v"]._engine_variable
        mv = m._value + (g - m._value) * _c(1 - self.beta_1, dt)
        vv = v._value + (np.square(g) - v._value) * _c(1 - self.beta_2, dt)
        m._assign_array(mv)
        v._assign_array(vv)
        if self.amsgrad:
            vh = slots["vhat"]._engine_variable
            vh._assign_array(np.maximum(vh._value, vv))
            vv = vh._value
        var._assign_array(var._value - (mv * alpha) / (np.sqrt(vv) + _c(self.epsilon, dt)))


class RMSprop(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-7, centered: bool = False, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def _make_slots(self, var: Any) -> dict:
        s = {"v": self.add_variable_from_reference(var, "velocity")}
        if self.momentum > 0:
            s["mom"] = self.add_variable_from_reference(var, "momentum")
        if self.centered:
            s["mg"] = self.add_variable_from_reference(var, "average_gradient")
        return s

    def _rule(self, lr: Any) -> dict[str, Any]:
        return update_rule("rmsprop", lr, rho=self.rho, momentum=self.momentum, epsilon=self.epsilon,
                           centered=self.centered)

    def _update(self, var: Any, g: np.ndarray, lr: np.ndarray, slots: dict, iteration: np.ndarray) -> None:
        dt = g.dtype
        rho = _c(self.rho, dt)
        v = slots["v"]._engine_variable
        vv = rho * v._value + _c(1 - self.rho, dt) * np.square(g)
        v._assign_array(vv)
        if self.centered:
            mg = slots["mg"]._engine_variable
            mgv = rho * mg._value + _c(1 - self.rho, dt) * g
            mg._assign_array(mgv)
            denom = vv - np.square(mgv) + _c(self.epsilon, dt)
        else:
            denom = vv + _c(self.epsilon, dt)
        inc = (lr * g) / np.sqrt(denom)
        if self.momentum > 0:
            mom = slots["mom"]._engine_variable
            mv = _c(self.momentum, dt) * mom._value + inc
            mom._assign_array(mv)
            var._assign_array(var._value - mv)
        else:
            var._assign_array(var._value - inc)


class Adagrad(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1,
                 epsilon: float = 1e-7, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def _make_slots(self, var: Any) -> dict:
        acc = self.add_variable_from_reference(var, "accumulator")
        ev = acc._engine_variable
        ev._assign_array(np.full(ev.shape.as_list(), self.initial_accumulator_value, dtype=ev.dtype.np))
        return {"acc": acc}

    def _rule(self, lr: Any) -> dict[str, Any]:
        return update_rule("adagrad", lr, initial_accumulator_value=self.initial_accumulator_value,
                           epsilon=self.epsilon)

    def _update(self, var: Any, g: np.ndarray, lr: np.ndarray, slots: dict, iteration: np.ndarray) -> None:
        dt = g.dtype
        acc = slots["acc"]._engine_variable
        av = acc._value + np.square(g)
        acc._assign_array(av)
        var._assign_array(var._value - (lr * g) / np.sqrt(av + _c(self.epsilon, dt)))


class Adadelta(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.95, epsilon: float = 1e-7,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def _make_slots(self, var: Any) -> dict:
        return {"ag": self.add_variable_from_reference(var, "accumulated_grad"),
                "adv": self.add_variable_from_reference(var, "accumulated_delta_var")}

    def _rule(self, lr: Any) -> dict[str, Any]:
        return update_rule("adadelta", lr, rho=self.rho, epsilon=self.epsilon)

    def _update(self, var: Any, g: np.ndarray, lr: np.ndarray, slots: dict, iteration: np.ndarray) -> None:
        dt = g.dtype
        rho, one_m, eps = _c(self.rho, dt), _c(1 - self.rho, dt), _c(self.epsilon, dt)
        ag, adv = slots["ag"]._engine_variable, slots["adv"]._engine_variable
        agv = rho * ag._value + one_m * np.square(g)
        ag._assign_array(agv)
        delta = -((np.sqrt(adv._value + eps) * g) / np.sqrt(agv + eps))
        adv._assign_array(rho * adv._value + one_m * np.square(delta))
        var._assign_array(var._value + lr * delta)


present_as_keras(
    {cls: f"optimizers.{name}" for cls, name in [(SGD, "sgd"), (Adam, "adam"), (RMSprop, "rmsprop"),
     (Adagrad, "adagrad"), (Adadelta, "adadelta"), (Optimizer, "optimizer")]},
    Optimizer.apply_gradients, Optimizer.apply,
)


def get(identifier: Any) -> Optimizer:
    if isinstance(identifier, Optimizer):
        return identifier
    table = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad, "adadelta": Adadelta}
    if isinstance(identifier, str) and identifier.lower() in table:
        return table[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


__all__ = ["SGD", "Adadelta", "Adagrad", "Adam", "RMSprop", "dtypes"]
