"""TF 1.x recurrent cells and loops (``tf.nn.rnn_cell``, ``tf.nn.dynamic_rnn``...).

The loops are unrolled over a time dimension known at graph-construction time into registered
ops, so gradients flow through time like any other graph. Cells follow TF 1.15's
``rnn_cell_impl``: one ``kernel`` over ``concat([inputs, h])``, the same gate order, names
(``rnn/basic_lstm_cell/kernel``) and initializers (get_variable's glorot_uniform kernel, zeros
bias; a GRU's gate bias starts at ones).
"""

from __future__ import annotations

import collections
import re
from typing import Any

import numpy as np

from runtime import dtypes, initializers, nest
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.keras import activations
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.ops.registry import apply, register, register_gradient
from runtime.tensor import Tensor
from runtime.variable_scope import get_variable, get_variable_scope, variable_scope


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM state: cell ``c`` then output ``h`` (TF1's order)."""

    __slots__ = ()

    @property
    def dtype(self) -> Any:
        return self.c.dtype


def _zeros(batch_size: Any, n: int, dtype: Any) -> Tensor:
    shape = A.stack([batch_size, n]) if isinstance(batch_size, Tensor) else [int(batch_size), n]
    return A.zeros(shape, dtypes.as_dtype(dtype))


def _snake(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


class RNNCell:
    """Base cell: on first call opens ``variable_scope(<snake class name>)`` (unique within the
    current scope) and builds its variables there (``build(inputs_shape)``, ``add_variable``);
    later calls reuse them. User subclasses override ``call`` (or ``__call__``) and the sizes."""

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        self._name = name
        self._scope: Any = None
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self.built = False

    @property
    def state_size(self) -> Any:
        return self._num_units

    @property
    def output_size(self) -> Any:
        return self._num_units

    @property
    def dtype(self) -> Any:
        return self._dtype

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        return nest.map_structure(lambda n: _zeros(batch_size, n, dtype), self.state_size)

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None, dtype: Any = None) -> Any:
        return self.zero_state(batch_size, dtype)

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        inputs = convert_to_tensor(inputs)
        if self._scope is None:
            with variable_scope(scope, default_name=self._name or _snake(type(self).__name__)) as vs:
                self._scope = vs
                self._dtype = self._dtype or inputs.dtype
                if not self.built:
                    self.build(inputs.shape)
                    self.built = True
                return self.call(inputs, state)
        with variable_scope(self._scope, auxiliary_name_scope=False):
            return self.call(inputs, state)

    def build(self, inputs_shape: Any) -> None:
        pass

    def call(self, inputs: Tensor, state: Any) -> Any:
        raise NotImplementedError

    def add_variable(self, name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                     regularizer: Any = None, trainable: bool = True, **kwargs: Any) -> Any:
        """TF1 ``Layer.add_variable``: a get_variable in the cell's scope."""
        return get_variable(name, shape, dtype=dtype or self._dtype, initializer=initializer,
                            regularizer=regularizer, trainable=trainable)

    add_weight = add_variable

    @property
    def variables(self) -> list:
        return [v for v in vars(self).values() if hasattr(v, "assign")]

    trainable_variables = variables
    weights = variables


class _UnitsCell(RNNCell):
    """A cell of ``num_units`` with an activation (tanh by default)."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype)
        self._num_units = int(num_units)
        self._activation = activations.get(activation) or M.tanh


def _depth(inputs_shape: Any) -> int:
    d = inputs_shape[-1]
    d = getattr(d, "value", d)
    if d is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
    return int(d)


def _linear(inputs: Tensor, h: Tensor, kernel: Any, bias: Any) -> Tensor:
    return N.bias_add(M.matmul(A.concat([inputs, h], 1), kernel), bias)


class BasicRNNCell(_UnitsCell):
    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(num_units, activation, reuse, name, dtype)

    def build(self, inputs_shape: Any) -> None:
        n = self._num_units
        self._kernel = get_variable("kernel", [_depth(inputs_shape) + n, n], dtype=self._dtype)
        self._bias = get_variable("bias", [n], dtype=self._dtype, initializer=initializers.Zeros())

    def call(self, inputs: Tensor, state: Tensor) -> Any:
        out = self._activation(_linear(inputs, state, self._kernel, self._bias))
        return out, out


class GRUCell(_UnitsCell):
    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None, kernel_initializer: Any = None,
                 bias_initializer: Any = None, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(num_units, activation, reuse, name, dtype)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape: Any) -> None:
        n, d, dt = self._num_units, _depth(inputs_shape), self._dtype
        with variable_scope("gates"):
            self._gate_kernel = get_variable("kernel", [d + n, 2 * n], dtype=dt,
                                             initializer=self._kernel_initializer)
            self._gate_bias = get_variable("bias", [2 * n], dtype=dt,
                                           initializer=self._bias_initializer or initializers.Constant(1.0))
        with variable_scope("candidate"):
            self._candidate_kernel = get_variable("kernel", [d + n, n], dtype=dt,
                                                  initializer=self._kernel_initializer)
            self._candidate_bias = get_variable("bias", [n], dtype=dt,
                                                initializer=self._bias_initializer or initializers.Zeros())

    def call(self, inputs: Tensor, state: Tensor) -> Any:
        value = M.sigmoid(_linear(inputs, state, self._gate_kernel, self._gate_bias))
        r, u = A.split(value, 2, axis=1)
        c = self._activation(_linear(inputs, M.multiply(r, state), self._candidate_kernel, self._candidate_bias))
        new_h = M.add(M.multiply(u, state), M.multiply(M.subtract(1.0, u), c))
        return new_h, new_h


class BasicLSTMCell(_UnitsCell):
    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Any = None, reuse: Any = None, name: str | None = None, dtype: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(num_units, activation, reuse, name, dtype)
        self._forget_bias = float(forget_bias)
        self._state_is_tuple = state_is_tuple

    @property
    def state_size(self) -> Any:
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    def build(self, inputs_shape: Any) -> None:
        n = self._num_units
        self._kernel = get_variable("kernel", [_depth(inputs_shape) + n, 4 * n], dtype=self._dtype)
        self._bias = get_variable("bias", [4 * n], dtype=self._dtype, initializer=initializers.Zeros())

    def _split_state(self, state: Any) -> tuple:
        if self._state_is_tuple:
            return state[0], state[1]
        c, h = A.split(state, 2, axis=1)
        return c, h

    def _pack_state(self, c: Tensor, h: Tensor) -> Any:
        return LSTMStateTuple(c, h) if self._state_is_tuple else A.concat([c, h], 1)

    def call(self, inputs: Tensor, state: Any) -> Any:
        c, h = self._split_state(state)
        i, j, f, o = A.split(_linear(inputs, h, self._kernel, self._bias), 4, axis=1)
        forget = M.sigmoid(M.add(f, convert_to_tensor(self._forget_bias, dtype=f.dtype)))
        new_c = M.add(M.multiply(c, forget), M.multiply(M.sigmoid(i), self._activation(j)))
        new_h = M.multiply(self._activation(new_c), M.sigmoid(o))
        return new_h, self._pack_state(new_c, new_h)


class LSTMCell(BasicLSTMCell):
    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: Any = None,
                 initializer: Any = None, num_proj: Any = None, proj_clip: Any = None,
                 num_unit_shards: Any = None, num_proj_shards: Any = None, forget_bias: float = 1.0,
                 state_is_tuple: bool = True, activation: Any = None, reuse: Any = None,
                 name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(num_units, forget_bias, state_is_tuple, activation, reuse, name, dtype)
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip

    @property
    def state_size(self) -> Any:
        n, m = self._num_units, self._num_proj or self._num_units
        return LSTMStateTuple(n, m) if self._state_is_tuple else n + m

    @property
    def output_size(self) -> Any:
        return self._num_proj or self._num_units

    def build(self, inputs_shape: Any) -> None:
        n, dt = self._num_units, self._dtype
        h = self._num_proj or n
        self._kernel = get_variable("kernel", [_depth(inputs_shape) + h, 4 * n], dtype=dt, initializer=self._initializer)
        self._bias = get_variable("bias", [4 * n], dtype=dt, initializer=initializers.Zeros())
        if self._use_peepholes:
            self._w_f_diag = get_variable("w_f_diag", [n], dtype=dt, initializer=self._initializer)
            self._w_i_diag = get_variable("w_i_diag", [n], dtype=dt, initializer=self._initializer)
            self._w_o_diag = get_variable("w_o_diag", [n], dtype=dt, initializer=self._initializer)
        if self._num_proj is not None:
            with variable_scope("projection"):
                self._proj_kernel = get_variable("kernel", [n, self._num_proj], dtype=dt,
                                                 initializer=self._initializer)

    def _split_state(self, state: Any) -> tuple:
        if self._state_is_tuple:
            return state[0], state[1]
        n = self._num_units
        return A.slice(state, [0, 0], [-1, n]), A.slice(state, [0, n], [-1, self._num_proj or n])

    def call(self, inputs: Tensor, state: Any) -> Any:
        c_prev, m_prev = self._split_state(state)
        i, j, f, o = A.split(_linear(inputs, m_prev, self._kernel, self._bias), 4, axis=1)
        act, sig = self._activation, M.sigmoid
        if self._use_peepholes:
            c = M.add(M.multiply(sig(M.add(M.add(f, self._forget_bias), M.multiply(self._w_f_diag, c_prev))), c_prev),
                      M.multiply(sig(M.add(i, M.multiply(self._w_i_diag, c_prev))), act(j)))
        else:
            c = M.add(M.multiply(sig(M.add(f, self._forget_bias)), c_prev), M.multiply(sig(i), act(j)))
        if self._cell_clip is not None:
            c = M.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = M.multiply(sig(M.add(o, M.multiply(self._w_o_diag, c))), act(c))
        else:
            m = M.multiply(sig(o), act(c))
        if self._num_proj is not None:
            m = M.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = M.clip_by_value(m, -self._proj_clip, self._proj_clip)
        return m, self._pack_state(c, m)


class MultiRNNCell(RNNCell):
    """Cells stacked in ``multi_rnn_cell/cell_<i>`` scopes; the state is a tuple of their states."""

    def __init__(self, cells: list, state_is_tuple: bool = True) -> None:
        super().__init__()
        if not state_is_tuple:
            raise Unsupported("tf.nn.rnn_cell.MultiRNNCell with state_is_tuple=False")
        self._cells = list(cells)

    @property
    def state_size(self) -> Any:
        return tuple(c.state_size for c in self._cells)

    @property
    def output_size(self) -> Any:
        return self._cells[-1].output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        return tuple(c.zero_state(batch_size, dtype) for c in self._cells)

    def call(self, inputs: Tensor, state: Any) -> Any:
        cur, new_states = inputs, []
        for k, cell in enumerate(self._cells):
            with variable_scope(f"cell_{k}"):
                cur, s = cell(cur, state[k])
            new_states.append(s)
        return cur, tuple(new_states)

    @property
    def variables(self) -> list:
        return [v for c in self._cells for v in c.variables]

    trainable_variables = variables
    weights = variables


class DropoutWrapper(RNNCell):
    """Dropout on a cell's inputs and outputs (no scope of its own, as in TF1)."""

    def __init__(self, cell: Any, input_keep_prob: Any = 1.0, output_keep_prob: Any = 1.0,
                 state_keep_prob: Any = 1.0, variational_recurrent: bool = False, input_size: Any = None,
                 dtype: Any = None, seed: Any = None, dropout_state_filter_visitor: Any = None) -> None:
        super().__init__()
        if variational_recurrent:
            raise Unsupported("tf.nn.rnn_cell.DropoutWrapper with variational_recurrent=True")
        if not (isinstance(state_keep_prob, (int, float)) and state_keep_prob == 1.0):
            raise Unsupported("tf.nn.rnn_cell.DropoutWrapper with state_keep_prob")
        self._cell = cell
        self._input_keep_prob = input_keep_prob
        self._output_keep_prob = output_keep_prob
        self._seed = seed

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        return self._cell.zero_state(batch_size, dtype)

    def _drop(self, x: Tensor, keep: Any) -> Tensor:
        if isinstance(keep, (int, float)) and float(keep) == 1.0:
            return x
        rate = 1.0 - keep if isinstance(keep, (int, float)) else M.subtract(1.0, keep)
        return N.apply_dropout(x, rate, seed=self._seed)

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        out, new_state = self._cell(self._drop(convert_to_tensor(inputs), self._input_keep_prob), state, scope)
        return self._drop(out, self._output_keep_prob), new_state

    @property
    def variables(self) -> list:
        return self._cell.variables

    trainable_variables = variables
    weights = variables


class ResidualWrapper(DropoutWrapper):
    """``outputs = inputs + cell outputs`` (or ``residual_fn(inputs, outputs)``); no scope of its own."""

    def __init__(self, cell: Any, residual_fn: Any = None) -> None:
        RNNCell.__init__(self)
        self._cell = cell
        self._residual_fn = residual_fn or (lambda i, o: nest.map_structure(M.add, i, o))

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        inputs = convert_to_tensor(inputs)
        out, new_state = self._cell(inputs, state, scope)
        return self._residual_fn(inputs, out), new_state


# --- loops ------------------------------------------------------------------------------------


def _static_len(x: Tensor, axis: int, api: str) -> int:
    n = x.shape[axis]
    n = getattr(n, "value", n)
    if n is None:
        raise Unsupported(f"{api} over a time dimension unknown at graph-construction time")
    return int(n)


def _initial_state(cell: Any, initial_state: Any, batch: Any, dtype: Any, api: str) -> Any:
    if initial_state is not None:
        return nest.map_structure(convert_to_tensor, initial_state)
    if dtype is None:
        raise ValueError("If there is no initial_state, you must give a dtype.")
    return cell.zero_state(batch, dtype)


def _batch_size(x: Tensor, axis: int = 0) -> Any:
    b = x.shape[axis]
    b = getattr(b, "value", b)
    return int(b) if b is not None else A.shape(x)[axis]


def _run_steps(cell: Any, steps: list, state: Any, sequence_length: Any) -> tuple:
    """Call the cell per step; past a sequence's length its output is zero and its state is
    carried over (TF's ``_rnn_step`` copy-through)."""
    outputs = []
    lengths = None if sequence_length is None else M.cast(convert_to_tensor(sequence_length), dtypes.int32)
    for t, x in enumerate(steps):
        if t == 0:
            out, new_state = cell(x, state)
        else:  # later steps reuse the variables (TF traces the loop body once)
            with variable_scope(get_variable_scope(), reuse=True, auxiliary_name_scope=False):
                out, new_state = cell(x, state)
        if lengths is not None:
            done = A.expand_dims(M.greater_equal(t, lengths), 1)
            out = M.where(done, A.zeros_like(out), out)
            new_state = nest.map_structure(lambda old, new, done=done: M.where(done, old, new), state, new_state)
        outputs.append(out)
        state = new_state
    return outputs, state


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: Any = None, initial_state: Any = None,
                dtype: Any = None, parallel_iterations: Any = None, swap_memory: bool = False,
                time_major: bool = False, scope: Any = None) -> tuple:
    """``tf.nn.dynamic_rnn``: outputs ``[batch, time, out]`` (or time-major) and the final state."""
    flat = [convert_to_tensor(x) for x in nest.flatten(inputs)]
    if len(flat) != 1:
        raise Unsupported("tf.nn.dynamic_rnn with nested inputs")
    x = flat[0]
    t_axis, b_axis = (0, 1) if time_major else (1, 0)
    steps_n = _static_len(x, t_axis, "tf.nn.dynamic_rnn")
    with variable_scope(scope or "rnn"):
        batch = _batch_size(x, b_axis)
        state = _initial_state(cell, initial_state, batch, dtype, "tf.nn.dynamic_rnn")
        steps = A.unstack(x, num=steps_n, axis=t_axis)
        outputs, state = _run_steps(cell, steps, state, sequence_length)
        return A.stack(outputs, axis=t_axis), state


def static_rnn(cell: Any, inputs: Any, initial_state: Any = None, dtype: Any = None,
               sequence_length: Any = None, scope: Any = None) -> tuple:
    """``tf.nn.static_rnn``: a list of ``[batch, in]`` steps in, a list of outputs out."""
    steps = [convert_to_tensor(x) for x in inputs]
    with variable_scope(scope or "rnn"):
        state = _initial_state(cell, initial_state, _batch_size(steps[0]), dtype, "tf.nn.static_rnn")
        return _run_steps(cell, steps, state, sequence_length)


def reverse_sequence(input: Any, seq_lengths: Any, seq_axis: Any = None, batch_axis: Any = None,
                     name: str | None = None, seq_dim: Any = None, batch_dim: Any = None) -> Tensor:
    """``tf.reverse_sequence``: reverse each batch entry's first ``seq_lengths[b]`` steps."""
    seq = seq_axis if seq_axis is not None else seq_dim
    batch = batch_axis if batch_axis is not None else (batch_dim or 0)
    return apply("ReverseSequence", [convert_to_tensor(input), M.cast(convert_to_tensor(seq_lengths), dtypes.int64)],
                 {"seq_axis": int(seq), "batch_axis": int(batch)}, name=name)


def _reverse_sequence_make(attrs: dict) -> Any:
    seq, batch = attrs["seq_axis"], attrs["batch_axis"]

    def kernel(x: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        out = np.array(x, copy=True)
        for b, n in enumerate(lengths):
            idx: list = [slice(None)] * x.ndim
            idx[batch], idx[seq] = b, slice(0, int(n))
            src = x[tuple(idx)]
            axis = seq - (1 if batch < seq else 0)
            out[tuple(idx)] = np.flip(src, axis)
        return out

    return kernel


register("ReverseSequence", _reverse_sequence_make)
register_gradient("ReverseSequence")(lambda op, g: [apply("ReverseSequence", [g, op.inputs[1]], op.attrs), None])


def bidirectional_dynamic_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, sequence_length: Any = None,
                              initial_state_fw: Any = None, initial_state_bw: Any = None, dtype: Any = None,
                              parallel_iterations: Any = None, swap_memory: bool = False,
                              time_major: bool = False, scope: Any = None) -> tuple:
    """``tf.nn.bidirectional_dynamic_rnn``: ``((out_fw, out_bw), (state_fw, state_bw))``."""
    x = convert_to_tensor(inputs)
    t_axis, b_axis = (0, 1) if time_major else (1, 0)

    def rev(v: Tensor) -> Tensor:
        if sequence_length is None:
            return A.reverse(v, [t_axis])
        return reverse_sequence(v, sequence_length, seq_axis=t_axis, batch_axis=b_axis)

    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            out_fw, state_fw = dynamic_rnn(cell_fw, x, sequence_length, initial_state_fw, dtype,
                                           time_major=time_major, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            tmp, state_bw = dynamic_rnn(cell_bw, rev(x), sequence_length, initial_state_bw, dtype,
                                        time_major=time_major, scope=bw_scope)
    return (out_fw, rev(tmp)), (state_fw, state_bw)


def static_bidirectional_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, initial_state_fw: Any = None,
                             initial_state_bw: Any = None, dtype: Any = None, sequence_length: Any = None,
                             scope: Any = None) -> tuple:
    """``tf.nn.static_bidirectional_rnn``: ``(outputs, state_fw, state_bw)``, each output the
    concatenation of both directions."""
    steps = [convert_to_tensor(x) for x in inputs]

    def rev(seq: list) -> list:
        if sequence_length is None:
            return list(reversed(seq))
        stacked = reverse_sequence(A.stack(seq), sequence_length, seq_axis=0, batch_axis=1)
        return A.unstack(stacked, num=len(seq))

    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            out_fw, state_fw = static_rnn(cell_fw, steps, initial_state_fw, dtype, sequence_length, fw_scope)
        with variable_scope("bw") as bw_scope:
            tmp, state_bw = static_rnn(cell_bw, rev(steps), initial_state_bw, dtype, sequence_length, bw_scope)
    outputs = [A.concat([f, b], 1) for f, b in zip(out_fw, rev(tmp))]
    return outputs, state_fw, state_bw


CELLS = {"RNNCell": RNNCell, "BasicRNNCell": BasicRNNCell, "BasicLSTMCell": BasicLSTMCell,
         "LSTMCell": LSTMCell, "GRUCell": GRUCell, "MultiRNNCell": MultiRNNCell,
         "DropoutWrapper": DropoutWrapper, "ResidualWrapper": ResidualWrapper, "LSTMStateTuple": LSTMStateTuple}
NN = {"dynamic_rnn": dynamic_rnn, "static_rnn": static_rnn, "bidirectional_dynamic_rnn": bidirectional_dynamic_rnn,
      "static_bidirectional_rnn": static_bidirectional_rnn}
CONTRIB = CELLS | {"static_rnn": static_rnn, "static_bidirectional_rnn": static_bidirectional_rnn}

