"""``tf.compat.v1.train`` optimizers, updating exactly as TF1's C++ kernels do (reference §3.3.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.gradients import gradients
from runtime.graph import GraphKeys
from runtime.optimizers.common import f32, minus_step, step_op, times
from runtime.tensor import Tensor
from runtime.update_rules import update_rule
from runtime.variables import Variable


def _to_scalar_input(x: Any) -> Any:
    """Hyperparameters: tensors stay tensors (fed each run); Python numbers become float32."""
    if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
        return x
    if callable(x):
        return x()
    return np.float32(x)


class Optimizer:
    """Base of TF1 optimizers: compute_gradients / apply_gradients / minimize and slots."""

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._name = name
        self._use_locking = use_locking
        self._slots: dict[str, dict[int, Variable]] = {}
        self._non_slot: dict[str, Variable] = {}

    def get_name(self) -> str:
        return self._name

    # --- gradients ------------------------------------------------------------------------------
    def compute_gradients(self, loss: Any, var_list: Any = None, gate_gradients: int = 1,
                          aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> list:
        if callable(loss):
            from runtime.tape import GradientTape

            with GradientTape() as tape:
                if var_list is not None:
                    tape.watch(var_list)
                value = loss()
            vars_ = list(var_list) if var_list is not None else list(tape.watched_variables())
            grads = tape.gradient(value, vars_, output_gradients=grad_loss)
            return list(zip(grads, vars_))
        if context.executing_eagerly():
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a function when "
                               "eager execution is enabled.")
        if var_list is None:
            g = context.get_default_graph()
            var_list = g.get_collection(GraphKeys.TRAINABLE_VARIABLES) + g.get_collection(
                GraphKeys.TRAINABLE_RESOURCE_VARIABLES)
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, grad_ys=None if grad_loss is None else [grad_loss])
        return list(zip(grads, var_list))

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, gate_gradients: int = 1,
                 aggregation_method: Any = None, colocate_gradients_with_ops: bool = False,
                 name: str | None = None, grad_loss: Any = None) -> Any:
        gv = self.compute_gradients(loss, var_list, gate_gradients, aggregation_method,
                                    colocate_gradients_with_ops, grad_loss)
        if not [v for g, v in gv if g is not None]:
            raise ValueError("No gradients provided for any variable, check your graph for ops that do "
                             f"not support gradients, between variables {[str(v) for _, v in gv]} and loss {loss}.")
        return self.apply_gradients(gv, global_step=global_step, name=name)

    # --- slots --------------------------------------------------------------------------------------
    def _slot(self, var: Variable, slot_name: str, op_name: str, init: Any) -> Variable:
        per = self._slots.setdefault(slot_name, {})
        if id(var) not in per:
            base = var.name[:-2] + "/" + op_name
            value = np.full(var.shape.as_list(), init, dtype=var.dtype.np)
            with context.init_scope():
                per[id(var)] = Variable(value, trainable=False, name=base, _report=False)
        return per[id(var)]

    def _non_slot_var(self, name: str, value: float) -> Variable:
        if name not in self._non_slot:
            with context.init_scope():
                self._non_slot[name] = Variable(np.float32(value), trainable=False, name=name, _report=False)
        return self._non_slot[name]

    def get_slot(self, var: Variable, name: str) -> Variable | None:
        return self._slots.get(name, {}).get(id(var))

    def get_slot_names(self) -> list[str]:
        return sorted(self._slots)

    def variables(self) -> list:
        out = list(self._non_slot.values())
        for per in self._slots.values():
            out.extend(per.values())
        return out

    # --- updates --------------------------------------------------------------------------------------
    def _hypers(self) -> list:
        raise NotImplementedError

    def _create_slots(self, var: Variable) -> None:
        """Create this optimizer's slots for ``var`` (none by default)."""

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        raise NotImplementedError

    def _rule(self, h: list) -> dict[str, Any]:
        """This step's update rule, from the hyperparameters' values (``common.update_rule``)."""
        raise NotImplementedError

    def _finish(self, h: list) -> None:
        """Update non-slot state after all variables (Adam's beta powers)."""

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Any:
        gv = [(g, v) for g, v in grads_and_vars]
        if not gv:
            raise ValueError("No variables provided.")
        live = [(g, v) for g, v in gv if g is not None]
        if not live:
            raise ValueError(f"No gradients provided for any variable: {[str(v) for _, v in gv]}.")
        from runtime.gradients import engine_variable

        pairs = [(g, engine_variable(v) or v) for g, v in live]
        for _, v in pairs:
            self._create_slots(v)
        self._prepare_non_slots()
        hypers = [_to_scalar_input(h) for h in self._hypers()]

        variables = [(var, var.dtype.np) for _, var in pairs]

        def update(gs: list, hs: list) -> None:
            for (var, np_dtype), g in zip(variables, gs):
                self._update(var, g.astype(np_dtype, copy=False), hs)
            self._finish(hs)

        op = step_op([g for g, _ in pairs], hypers, update, [v for _, v in live], name=name or self._name,
                     rule=self._rule)
        if global_step is None:
            return op
        if context.executing_eagerly():
            return global_step.assign_add(1)
        graph = context.get_default_graph()
        with graph.control_dependencies([op]):
            return global_step.assign_add(convert_to_tensor(1, dtype=global_step.dtype), read_value=False)

    def _prepare_non_slots(self) -> None:
        """Create non-slot variables before the first step (Adam)."""


class GradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate: Any, use_locking: bool = False, name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._lr = learning_rate

    def _hypers(self) -> list:
        return [self._lr]

    def _rule(self, h: list) -> dict[str, Any]:
        return update_rule("sgd", h[0], momentum=0.0, nesterov=False)

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        var._assign_array(minus_step(var._value, times(g, f32(h[0], g.dtype))))


class MomentumOptimizer(Optimizer):
    def __init__(self, learning_rate: Any, momentum: Any, use_locking: bool = False, name: str = "Momentum",
                 use_nesterov: bool = False) -> None:
        super().__init__(use_locking, name)
        self._lr, self._momentum, self._nesterov = learning_rate, momentum, use_nesterov

    def _hypers(self) -> list:
        return [self._lr, self._momentum]

    def _rule(self, h: list) -> dict[str, Any]:
        # TF1 accumulates gradients and Keras lr-scaled ones: the same while the rate holds.
        return update_rule("sgd", h[0], momentum=h[1], nesterov=self._nesterov)

    def _create_slots(self, var: Variable) -> None:
        self._slot(var, "momentum", self._name, 0)

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        lr, mu = f32(h[0], g.dtype), f32(h[1], g.dtype)
        acc = self.get_slot(var, "momentum")
        a = acc._value * mu + g  # type: ignore[union-attr]
        acc._assign_array(a)  # type: ignore[union-attr]
        if self._nesterov:
            var._assign_array(var._value - (g * lr + a * mu * lr))
        else:
            var._assign_array(var._value - a * lr)


class AdamOptimizer(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-8,
                 use_locking: bool = False, name: str = "Adam") -> None:
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._eps = learning_rate, beta1, beta2, epsilon

    def _hypers(self) -> list:
        return [self._lr, self._beta1, self._beta2, self._eps]

    def _rule(self, h: list) -> dict[str, Any]:
        return update_rule("adam", h[0], beta_1=h[1], beta_2=h[2], epsilon=h[3], amsgrad=False)

    def _prepare_non_slots(self) -> None:
        self._non_slot_var("beta1_power", self._beta1)
        self._non_slot_var("beta2_power", self._beta2)

    def _create_slots(self, var: Variable) -> None:
        self._slot(var, "m", self._name, 0)
        self._slot(var, "v", self._name + "_1", 0)

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        dt = g.dtype
        lr, b1, b2, eps = (f32(x, dt) for x in h)
        b1p = f32(self._non_slot["beta1_power"]._value, dt)
        b2p = f32(self._non_slot["beta2_power"]._value, dt)
        one = dt.type(1)
        alpha = lr * np.sqrt(one - b2p) / (one - b1p)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        mv = m._value + (g - m._value) * (one - b1)  # type: ignore[union-attr]
        vv = v._value + (g * g - v._value) * (one - b2)  # type: ignore[union-attr]
        m._assign_array(mv)  # type: ignore[union-attr]
        v._assign_array(vv)  # type: ignore[union-attr]
        var._assign_array(var._value - (mv * alpha) / (np.sqrt(vv) + eps))

    def _finish(self, h: list) -> None:
        b1, b2 = np.float32(h[1]), np.float32(h[2])
        p1, p2 = self._non_slot["beta1_power"], self._non_slot["beta2_power"]
        p1._assign_array(p1._value * b1)
        p2._assign_array(p2._value * b2)


class AdagradOptimizer(Optimizer):
    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1, use_locking: bool = False,
                 name: str = "Adagrad") -> None:
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._lr, self._init = learning_rate, initial_accumulator_value

    def _hypers(self) -> list:
        return [self._lr]

    def _rule(self, h: list) -> dict[str, Any]:
        return update_rule("adagrad", h[0], initial_accumulator_value=self._init, epsilon=0.0)

    def _create_slots(self, var: Variable) -> None:
        self._slot(var, "accumulator", self._name, self._init)

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        lr = f32(h[0], g.dtype)
        acc = self.get_slot(var, "accumulator")
        a = acc._value + g * g  # type: ignore[union-attr]
        acc._assign_array(a)  # type: ignore[union-attr]
        var._assign_array(var._value - g * lr * (g.dtype.type(1) / np.sqrt(a)))


class RMSPropOptimizer(Optimizer):
    def __init__(self, learning_rate: Any, decay: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-10,
                 use_locking: bool = False, centered: bool = False, name: str = "RMSProp") -> None:
        super().__init__(use_locking, name)
        self._lr, self._decay, self._momentum, self._eps, self._centered = (
            learning_rate, decay, momentum, epsilon, centered)

    def _hypers(self) -> list:
        return [self._lr, self._decay, self._momentum, self._eps]

    def _rule(self, h: list) -> dict[str, Any]:
        # Where its mean square starts (ones here, zeros in Keras) is state, not rule: the
        # values show it, and a rewrite may set Keras's slots to ones.
        return update_rule("rmsprop", h[0], rho=h[1], momentum=h[2], epsilon=h[3], centered=self._centered)

    def _create_slots(self, var: Variable) -> None:
        self._slot(var, "rms", self._name, 1)
        self._slot(var, "momentum", self._name + "_1", 0)
        if self._centered:
            self._slot(var, "mg", self._name + "_2", 0)

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        dt = g.dtype
        lr, rho, mu, eps = (f32(x, dt) for x in h)
        one = dt.type(1)
        ms_v, mom_v = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        ms = ms_v._value + (g * g - ms_v._value) * (one - rho)  # type: ignore[union-attr]
        ms_v._assign_array(ms)  # type: ignore[union-attr]
        if self._centered:
            mg_v = self.get_slot(var, "mg")
            mg = mg_v._value + (g - mg_v._value) * (one - rho)  # type: ignore[union-attr]
            mg_v._assign_array(mg)  # type: ignore[union-attr]
            denom = (ms - mg * mg) + eps
        else:
            denom = ms + eps
        mom = mom_v._value * mu + (g * lr) / np.sqrt(denom)  # type: ignore[union-attr]
        mom_v._assign_array(mom)  # type: ignore[union-attr]
        var._assign_array(var._value - mom)


class AdadeltaOptimizer(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.95, epsilon: float = 1e-8,
                 use_locking: bool = False, name: str = "Adadelta") -> None:
        super().__init__(use_locking, name)
        self._lr, self._rho, self._eps = learning_rate, rho, epsilon

    def _hypers(self) -> list:
        return [self._lr, self._rho, self._eps]

    def _rule(self, h: list) -> dict[str, Any]:
        return update_rule("adadelta", h[0], rho=h[1], epsilon=h[2])

    def _create_slots(self, var: Variable) -> None:
        self._slot(var, "accum", self._name, 0)
        self._slot(var, "accum_update", self._name + "_1", 0)

    def _update(self, var: Variable, g: np.ndarray, h: list) -> None:
        dt = g.dtype
        lr, rho, eps = (f32(x, dt) for x in h)
        one = dt.type(1)
        acc_v, upd_v = self.get_slot(var, "accum"), self.get_slot(var, "accum_update")
        acc = acc_v._value * rho + g * g * (one - rho)  # type: ignore[union-attr]
        acc_v._assign_array(acc)  # type: ignore[union-attr]
        update = np.sqrt(upd_v._value + eps) * (one / np.sqrt(acc + eps)) * g  # type: ignore[union-attr]
        var._assign_array(var._value - update * lr)
        upd_v._assign_array(upd_v._value * rho + update * update * (one - rho))  # type: ignore[union-attr]


def get_or_create_global_step(graph: Any = None) -> Variable:
    g = graph or context.get_default_graph()
    existing = g.get_collection(GraphKeys.GLOBAL_STEP) if not context.executing_eagerly() else []
    if existing:
        return existing[0]
    v = Variable(np.int64(0), trainable=False, name="global_step", dtype=dtypes.int64,
                 collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP]
                 if not context.executing_eagerly() else None)
    return v


def get_global_step(graph: Any = None) -> Any:
    """The GLOBAL_STEP collection's variable. With none there, TF1 looks `global_step:0` up by
    name: TF 1.x returns a ref variable so named, TF 2.21's resource one fails its integer
    check, so that case is named rather than given either answer."""
    g = graph or context.get_default_graph()
    existing = g.get_collection(GraphKeys.GLOBAL_STEP)
    if existing:
        return existing[0]
    if any(getattr(v, "name", "") == "global_step:0" for v in g.get_collection(GraphKeys.GLOBAL_VARIABLES)):
        raise Unsupported("tf.train.get_global_step() finding a variable named 'global_step' outside the "
                          "GLOBAL_STEP collection (TF 1.x returns it; TF 2.21 raises TypeError)")
    return None
