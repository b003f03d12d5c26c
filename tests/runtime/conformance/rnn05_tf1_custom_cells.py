# face: tf1
# tf1: rnn cells
"""User cells on tf.nn.rnn_cell.RNNCell: one with build(inputs_shape)/add_variable/call, one
overriding __call__ with its own variable_scope; both under dynamic_rnn and stacked."""
import numpy as np
import tensorflow as tf


class ScaledRNNCell(tf.nn.rnn_cell.RNNCell):
    def __init__(self, num_units, scale=0.5):
        super().__init__()
        self._num_units = num_units
        self._scale = scale

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        depth = inputs_shape[-1]
        self._w = self.add_variable("w", [depth + self._num_units, self._num_units],
                                    initializer=tf.constant_initializer(0.1))
        self._b = self.add_variable("b", [self._num_units], initializer=tf.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        h = tf.tanh(tf.matmul(tf.concat([inputs, state], 1), self._w) + self._b) * self._scale
        return h, h


class SumCell(tf.nn.rnn_cell.RNNCell):
    def __init__(self, n):
        super().__init__()
        self._n = n

    @property
    def state_size(self):
        return self._n

    @property
    def output_size(self):
        return self._n

    def __call__(self, inputs, state, scope=None):
        with tf.variable_scope(scope or "sum_cell"):
            v = tf.get_variable("v", [inputs.shape[-1], self._n], initializer=tf.constant_initializer(0.3))
            new = state + tf.matmul(inputs, v)
        return new, new


x = tf.constant(np.cos(np.arange(2 * 3 * 2).reshape(2, 3, 2)).astype(np.float32))
out1, st1 = tf.nn.dynamic_rnn(ScaledRNNCell(3), x, dtype=tf.float32)
with tf.variable_scope("stack"):
    out2, st2 = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell([SumCell(2), ScaledRNNCell(2, 2.0)]), x,
                                  dtype=tf.float32)
grads = tf.gradients(tf.reduce_sum(out1) + tf.reduce_sum(out2), tf.trainable_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print([v.name for v in tf.trainable_variables()])
    for value in sess.run([out1, st1, out2, st2, grads]):
        print(value)
