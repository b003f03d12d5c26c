# face: tf2
"""Keras 3 opens a layer's name scope around its build as around its call: sub-layers a layer
builds in its own build have paths under it (also for an RNN cell, which the RNN layer builds),
a keras.name_scope opened in build puts a sub-layer built there under that scope, while the
layer's own weights stay at the path its first build or call opened; a layer built by hand at
the top has its own name as path."""
import numpy as np
import tensorflow as tf


class Affine(tf.keras.layers.Layer):
    def __init__(self, units, bias=0.0, name=None):
        super().__init__(name=name)
        self.units, self.bias_value = units, bias

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=[input_shape[-1], self.units],
                                      initializer=tf.constant_initializer(0.1))
        self.bias = self.add_weight(name="bias", shape=[self.units],
                                    initializer=tf.constant_initializer(self.bias_value))

    def call(self, x):
        return tf.matmul(x, self.kernel) + self.bias


class GatedCell(tf.keras.layers.Layer):
    def __init__(self, units, name=None):
        super().__init__(name=name)
        self.output_size = units
        self.state_size = [units]
        self.gates = Affine(units, 1.0, name="gates")
        self.candidate = Affine(units, name="candidate")

    def build(self, input_shape):
        depth = input_shape[-1] + self.output_size
        self.gates.build([input_shape[0], depth])
        with tf.keras.name_scope("extra"):
            self.candidate.build([input_shape[0], depth])
            self.scale = self.add_weight(name="scale", shape=[], initializer="ones")

    def call(self, inputs, states):
        h = states[0]
        u = tf.sigmoid(self.gates(tf.concat([inputs, h], 1)))
        c = tf.tanh(self.candidate(tf.concat([inputs, u * h], 1)))
        new_h = self.scale * (u * h + (1 - u) * c)
        return new_h, [new_h]


rnn = tf.keras.layers.RNN(GatedCell(3, name="gated_cell"), return_sequences=True, return_state=True, name="rnn")


@tf.function
def step(x):
    with tf.keras.name_scope("enc"):
        outputs, state = rnn(x)
    return outputs, state


x = tf.constant(np.linspace(-1, 1, 2 * 4 * 2).reshape(2, 4, 2).astype(np.float32))
outputs, state = step(x)
print("state", np.round(state.numpy(), 5))
print("outputs", outputs.shape)
print([w.path for w in rnn.weights])
print([w.name for w in rnn.trainable_variables])

alone = Affine(2, name="alone")
alone.build([None, 3])
print([w.path for w in alone.weights], alone.built)
with tf.keras.name_scope("outer"):
    inner = GatedCell(2, name="cell")
    inner.build([1, 2])
print([w.path for w in inner.weights])
