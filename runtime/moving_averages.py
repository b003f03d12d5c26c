"""``tf.train.ExponentialMovingAverage`` as TF 2.21's ``training/moving_averages.py`` builds it.

Shadow variables are ordinary engine variables (reported to the trace, so ``verify`` compares
their final values) and every update is built from registered ops, so one implementation serves
graph mode, eager mode and ``tf.function``: a graph's update reads and writes when its group op
is run (as TF's executor, reads before writes), a function's in program order.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.graph import GraphKeys
from runtime.ops import math as M
from runtime.ops.state import group, py_call
from runtime.tensor import Tensor
from runtime.variables import Variable

#: The dtypes TF averages (it also takes bfloat16, which the engine does not have).
_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _graph() -> Any:
    """The graph ops go into, or None when they run eagerly."""
    return None if context.executing_eagerly() else context.get_default_graph()


def _name_scope(name: str) -> Any:
    """A graph name scope (yields ``name/``, made unique); eagerly nothing (yields "")."""
    graph = _graph()
    return graph.name_scope(name) if graph is not None else contextlib.nullcontext("")


def _shadow_initial_value(var: Variable) -> Any:
    """TF's ``cond(is_variable_initialized(var), var.read_value, lambda: var.initial_value)``.

    Eagerly (also when a ``tf.function`` lifts the creation out) that is the variable's value
    now; in a graph it is decided each time the shadow's initializer runs.
    """
    graph = _graph()
    if graph is None:
        return np.array(var._read(), copy=True)
    initial = var.initial_value
    if initial is None:
        raise Unsupported("tf.train.ExponentialMovingAverage.apply() on a variable without an initial value")

    def kernel(init: np.ndarray) -> tuple:
        current = var._value
        return (np.array(init if current is None else current, copy=True),)

    with graph.control_dependencies(None):
        out, = py_call(kernel, [initial], [(var.shape, var.dtype)], name="cond")
    return out


def _create_shadow(primary: Any, initial: Any, name: str, dtype: dtypes.DType) -> Variable:
    """``slot_creator.create_slot``: a non-trainable global named ``<primary>/<name>``, unique
    among the variable scopes opened so far (a second average of one variable gets ``_1``)."""
    from runtime import variable_scope as VS

    graph = _graph()
    prefix = primary.name.removesuffix(":0")
    with VS.variable_scope(None, default_name=prefix + "/" + name, auxiliary_name_scope=graph is not None) as scope:
        full = scope.name
        shadow = Variable(initial, trainable=False, name=full, dtype=dtype, _absolute_name=True,
                          collections=[GraphKeys.GLOBAL_VARIABLES] if graph is not None else None)
    if graph is not None:
        VS._store()[full] = shadow  # get_variable made it: tf.get_variable(full) finds it
    return shadow


def _zero_debias(unbiased: Variable, value: Any, decay: Tensor) -> Any:
    """TF's ``_zero_debias``: a biased average and a step count beside the shadow, which is set
    to ``biased / (1 - (1 - decay) ** steps)``."""
    from runtime import initializers as I
    from runtime import variable_scope as VS
    from runtime.compat_v1 import global_variables

    base = unbiased.name[:-2]
    with VS.variable_scope(base) as scope:
        used = {v.name[:-2] for v in global_variables()}

        def unique(name: str) -> str:
            full = scope.name + "/" + name
            if scope.reuse or full not in used:
                return name
            idx = 1
            while f"{full}_{idx}" in used:
                idx += 1
            return f"{name}_{idx}"

        biased = VS.get_variable(unique("biased"), shape=unbiased.shape, dtype=unbiased.dtype,
                                 initializer=I.Zeros(), trainable=False)
        local_step = VS.get_variable(unique("local_step"), shape=[], dtype=unbiased.dtype,
                                     initializer=I.Zeros(), trainable=False)
    update_biased = biased.assign_sub((biased - value) * decay)
    update_local_step = local_step.assign_add(1)
    bias_factor = 1 - M.pow(1.0 - decay, update_local_step)
    return unbiased.assign(update_biased / bias_factor)


def assign_moving_average(variable: Variable, value: Any, decay: Any, zero_debias: bool) -> Any:
    """``variable -= (variable - value) * (1 - decay)``, the factor computed in float32 and cast
    to the variable's dtype (a float64 average moves by float32's 0.1, not 0.1)."""
    with _name_scope("AssignMovingAvg"):
        factor = convert_to_tensor(1.0 - decay, name="decay")
        if factor.dtype != variable.dtype.base_dtype:
            factor = M.cast(factor, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, factor)
        return variable.assign_sub((variable - value) * factor)


class ExponentialMovingAverage:
    """Maintains shadow copies of variables (or graph tensors) that decay towards them."""

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage") -> None:
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: dict[Any, Any] = {}

    @property
    def name(self) -> str:
        return self._name

    def apply(self, var_list: Any = None) -> Any:
        """Create the missing shadows (at their variables' values), then update them all; in a
        graph this returns the op that updates, eagerly it updates now and returns None."""
        from runtime.compat_v1 import executing_eagerly_outside_functions, trainable_variables

        if var_list is None:
            var_list = trainable_variables()
        var_list = list(var_list)
        for v in var_list:
            if isinstance(v, Tensor) and executing_eagerly_outside_functions():
                raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable"
                                " tensors when eager execution is enabled.")
        debiased: set[int] = set()
        for var in var_list:
            if var.dtype.base_dtype not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var.ref() not in self._averages:
                self._averages[var.ref()] = self._create_average(var, debiased)
        with _name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = M.cast(self._num_updates, dtypes.float32, name="num_updates")
                decay = M.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[var.ref()]
                updates.append(assign_moving_average(avg, var, decay, id(avg) in debiased))
            # TF names the group after the scope itself ("ExponentialMovingAverage").
            return group(*updates, name=scope or None)

    def _create_average(self, var: Any, debiased: set[int]) -> Variable:
        """The shadow of ``var``, made outside any function being traced (TF's init_scope):
        a variable's starts at the variable's value, a tensor's at zeros."""
        with context.init_scope():
            if isinstance(var, Variable):
                avg = _create_shadow(var, _shadow_initial_value(var), self._name, var.dtype)
                if context.current_trace() is None:  # TF's collection add from a function is lost
                    context.get_default_graph().add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                return avg
            if not var.shape.is_fully_defined():
                raise Unsupported("tf.train.ExponentialMovingAverage.apply() on a tensor of unknown shape")
            zeros = np.zeros(var.shape.as_list(), var.dtype.np)
            avg = _create_shadow(var.op, zeros, self._name, var.dtype)
            if self._zero_debias:
                debiased.add(id(avg))
            return avg

    def average(self, var: Any) -> Any:
        """The shadow of ``var``, or None."""
        return self._averages.get(var.ref(), None)

    def average_name(self, var: Any) -> str:
        """The shadow's name, or the name a shadow made now would get (what a Saver restores)."""
        if var.ref() in self._averages:
            return self._averages[var.ref()].name[:-len(":0")]
        return context.get_default_graph().unique_name(var.name[:-len(":0")] + "/" + self._name,
                                                       mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict[str, Any]:
        """``{shadow name: variable}`` for the averaged variables, plus every other global
        variable under its own name: a Saver built from it loads averages into the model."""
        from runtime.compat_v1 import global_variables, trainable_variables

        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + moving_average_variables()
        unique = list({id(v): v for v in moving_avg_variables}.values())
        name_map = {self.average_name(v): v for v in unique}
        averaged = {v.name for v in unique}
        for v in list({id(v): v for v in global_variables()}.values()):
            op_name = v.name[:-len(":0")]
            if v.name not in averaged and op_name not in name_map:
                name_map[op_name] = v
        return name_map


ExponentialMovingAverage.__module__ = "tensorflow.python.training.moving_averages"


def moving_average_variables(scope: str | None = None) -> list:
    """``tf.compat.v1.moving_average_variables``: the variables an average was applied to."""
    return context.get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)
