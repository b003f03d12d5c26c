# face: tf2
"""tf.keras.layers.RNN over a custom Layer cell: weight paths under the RNN layer, a state
holding a namedtuple (returned in that structure), the cell's get_initial_state, an
initial_state list, return_sequences/return_state, a single-int state_size, and gradients
through time under a tape in tf.function."""
import collections

import numpy as np
import tensorflow as tf

Pair = collections.namedtuple("Pair", ("c", "h"))


class PairCell(tf.keras.layers.Layer):
    def __init__(self, units, name=None):
        super().__init__(name=name)
        self.output_size = units
        self.state_size = [Pair(units, units)]

    def get_initial_state(self, batch_size=None):
        n = self.output_size
        return [Pair(tf.ones([batch_size, n]) * 0.5, tf.zeros([batch_size, n]))]

    def build(self, input_shape):
        n = self.output_size
        self.kernel = self.add_weight(name="kernel", shape=[input_shape[-1] + n, 2 * n],
                                      initializer=tf.constant_initializer(0.1))
        self.bias = self.add_weight(name="bias", shape=[2 * n], initializer="zeros")

    def call(self, inputs, states):
        c, h = states[0]
        a, b = tf.split(tf.matmul(tf.concat([inputs, h], 1), self.kernel) + self.bias, 2, axis=1)
        new_c = c * tf.sigmoid(a) + tf.tanh(b)
        new_h = tf.tanh(new_c)
        return new_h, [Pair(new_c, new_h)]


class PlainCell(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=[input_shape[-1] + self.units, self.units],
                                 initializer=tf.constant_initializer(-0.2))

    def call(self, inputs, states):
        out = tf.tanh(tf.matmul(tf.concat([inputs, states[0]], 1), self.w))
        return out, [out]


x = tf.constant(np.sin(np.arange(2 * 4 * 3).reshape(2, 4, 3)).astype(np.float32))
rnn = tf.keras.layers.RNN(PairCell(3), return_sequences=True, return_state=True, name="rnn")
outputs, state = rnn(x)
print(type(state).__name__, outputs.shape, state.c.shape)
print([w.path for w in rnn.weights])
print("outputs", np.round(outputs.numpy()[0, :, 0], 5))
print("state", np.round(state.c.numpy()[1], 5), np.round(state.h.numpy()[1], 5))
start = Pair(tf.fill([2, 3], 0.25), tf.fill([2, 3], -0.1))
outputs2, state2 = rnn(x, initial_state=[start])
print("from a given state", np.round(state2.h.numpy()[0], 5))

plain = tf.keras.layers.RNN(PlainCell(2), return_state=True)
last, h = plain(x)
print(plain.name, [w.path for w in plain.weights], np.round(last.numpy(), 5), np.round(h.numpy(), 5))


@tf.function
def grads(x):
    with tf.GradientTape() as tape:
        out, st = rnn(x)
        loss = tf.reduce_sum(out) + tf.reduce_sum(st.c * st.c)
    return tape.gradient(loss, rnn.trainable_variables)


for g in grads(x):
    print("grad", g.shape, np.round(float(tf.reduce_sum(g)), 4))
