"""TF 1.15's ``tf.nn.rnn_cell`` classes for real TF 2.21, which removed them with Keras 3.

Real TF 2.21 still has ``tf.compat.v1.nn.dynamic_rnn``/``static_rnn``/
``bidirectional_dynamic_rnn`` (the while loop, sequence masking, scopes); only the cells are
gone. Conformance programs marked ``# tf1: rnn cells`` get these cells installed as
``tf.nn.rnn_cell`` on real TF: the step equations, variable names and initializers of TF 1.15's
``rnn_cell_impl`` written with ``tf.compat.v1`` ops, so the referee runs the loop TF ships.
"""

from __future__ import annotations

import collections
import re
import types

import tensorflow.compat.v1 as tf


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    __slots__ = ()

    @property
    def dtype(self):
        return self.c.dtype


class _Cell:
    """TF1 RNNCell: variables built on first call in ``<snake class name>`` under the caller's scope."""

    _base = ""

    def __init__(self, num_units, activation=None):
        self._num_units = num_units
        self._activation = activation or tf.tanh
        self._scope = None

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def zero_state(self, batch_size, dtype):
        return tf.nest.map_structure(lambda n: tf.zeros([batch_size, n], dtype), self.state_size)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return self.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        if self._scope is None:
            with tf.variable_scope(scope, default_name=self._base or _snake(type(self).__name__)) as vs:
                self._scope = vs
                self.dtype = inputs.dtype
                self.build(inputs.shape[-1] if self._base else inputs.shape)
                return self.call(inputs, state)
        with tf.variable_scope(self._scope, auxiliary_name_scope=False):
            return self.call(inputs, state)


class RNNCell(_Cell):
    """TF1's base for user cells: ``build(inputs_shape)``, ``add_variable`` = get_variable."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        super().__init__(0)

    def build(self, inputs_shape):
        pass

    def add_variable(self, name, shape=None, dtype=None, initializer=None, **kwargs):
        return tf.get_variable(name, shape, dtype=dtype or self.dtype, initializer=initializer)

    add_weight = add_variable


def _linear(x, h, kernel, bias):
    return tf.nn.bias_add(tf.matmul(tf.concat([x, h], 1), kernel), bias)


class BasicRNNCell(_Cell):
    _base = "basic_rnn_cell"

    def build(self, depth):
        n = self._num_units
        self._kernel = tf.get_variable("kernel", [depth + n, n])
        self._bias = tf.get_variable("bias", [n], initializer=tf.zeros_initializer())

    def call(self, inputs, state):
        out = self._activation(_linear(inputs, state, self._kernel, self._bias))
        return out, out


class GRUCell(_Cell):
    _base = "gru_cell"

    def build(self, depth):
        n = self._num_units
        with tf.variable_scope("gates"):
            self._gk = tf.get_variable("kernel", [depth + n, 2 * n])
            self._gb = tf.get_variable("bias", [2 * n], initializer=tf.constant_initializer(1.0))
        with tf.variable_scope("candidate"):
            self._ck = tf.get_variable("kernel", [depth + n, n])
            self._cb = tf.get_variable("bias", [n], initializer=tf.zeros_initializer())

    def call(self, inputs, state):
        value = tf.sigmoid(_linear(inputs, state, self._gk, self._gb))
        r, u = tf.split(value=value, num_or_size_splits=2, axis=1)
        c = self._activation(_linear(inputs, r * state, self._ck, self._cb))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(_Cell):
    _base = "basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None):
        super().__init__(num_units, activation)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    def build(self, depth):
        n = self._num_units
        self._kernel = tf.get_variable("kernel", [depth + n, 4 * n])
        self._bias = tf.get_variable("bias", [4 * n], initializer=tf.zeros_initializer())

    def call(self, inputs, state):
        c, h = state if self._state_is_tuple else tf.split(state, 2, axis=1)
        i, j, f, o = tf.split(_linear(inputs, h, self._kernel, self._bias), 4, axis=1)
        forget_bias = tf.constant(self._forget_bias, dtype=f.dtype)
        new_c = tf.add(tf.multiply(c, tf.sigmoid(tf.add(f, forget_bias))),
                       tf.multiply(tf.sigmoid(i), self._activation(j)))
        new_h = tf.multiply(self._activation(new_c), tf.sigmoid(o))
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else tf.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(BasicLSTMCell):
    _base = "lstm_cell"

    def __init__(self, num_units, use_peepholes=False, num_proj=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None):
        super().__init__(num_units, forget_bias, state_is_tuple, activation)
        self._use_peepholes = use_peepholes
        self._num_proj = num_proj

    @property
    def state_size(self):
        n, m = self._num_units, self._num_proj or self._num_units
        return LSTMStateTuple(n, m) if self._state_is_tuple else n + m

    @property
    def output_size(self):
        return self._num_proj or self._num_units

    def build(self, depth):
        n = self._num_units
        self._kernel = tf.get_variable("kernel", [depth + (self._num_proj or n), 4 * n])
        self._bias = tf.get_variable("bias", [4 * n], initializer=tf.zeros_initializer())
        if self._use_peepholes:
            self._wf = tf.get_variable("w_f_diag", [n])
            self._wi = tf.get_variable("w_i_diag", [n])
            self._wo = tf.get_variable("w_o_diag", [n])
        if self._num_proj is not None:
            with tf.variable_scope("projection"):
                self._proj = tf.get_variable("kernel", [n, self._num_proj])

    def call(self, inputs, state):
        c_prev, m_prev = state
        i, j, f, o = tf.split(_linear(inputs, m_prev, self._kernel, self._bias), 4, axis=1)
        act, sig = self._activation, tf.sigmoid
        if self._use_peepholes:
            c = (sig(f + self._forget_bias + self._wf * c_prev) * c_prev
                 + sig(i + self._wi * c_prev) * act(j))
            m = sig(o + self._wo * c) * act(c)
        else:
            c = sig(f + self._forget_bias) * c_prev + sig(i) * act(j)
            m = sig(o) * act(c)
        if self._num_proj is not None:
            m = tf.matmul(m, self._proj)
        return m, LSTMStateTuple(c, m)


class MultiRNNCell(_Cell):
    _base = "multi_rnn_cell"

    def __init__(self, cells):
        super().__init__(0)
        self._cells = cells

    @property
    def state_size(self):
        return tuple(c.state_size for c in self._cells)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    def zero_state(self, batch_size, dtype):
        return tuple(c.zero_state(batch_size, dtype) for c in self._cells)

    def build(self, depth):
        pass

    def call(self, inputs, state):
        cur, new = inputs, []
        for k, cell in enumerate(self._cells):
            with tf.variable_scope(f"cell_{k}"):
                cur, s = cell(cur, state[k])
            new.append(s)
        return cur, tuple(new)


class ResidualWrapper:
    """TF1's ResidualWrapper: the wrapped cell's scope, outputs plus inputs."""

    def __init__(self, cell):
        self._cell = cell
        self.state_size, self.output_size = cell.state_size, cell.output_size

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return self.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        out, new_state = self._cell(inputs, state, scope)
        return inputs + out, new_state


def _snake(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


CELLS = {"RNNCell": RNNCell, "BasicRNNCell": BasicRNNCell, "GRUCell": GRUCell, "BasicLSTMCell": BasicLSTMCell,
         "LSTMCell": LSTMCell, "MultiRNNCell": MultiRNNCell, "LSTMStateTuple": LSTMStateTuple,
         "ResidualWrapper": ResidualWrapper}


def install(tf_module) -> None:
    """Serve the cells as ``tf.nn.rnn_cell`` of the given compat.v1 module."""
    assert all(c._base == _snake(n) for n, c in CELLS.items() if n not in ("LSTMStateTuple", "RNNCell", "ResidualWrapper"))
    tf_module.nn.rnn_cell = types.SimpleNamespace(**CELLS)
