# face: tf2
"""tf.keras.name_scope: a layer first called inside it (in tf.function or eagerly) builds its
weights under the scope's path, nested scopes join with '/', a built layer keeps its paths
when called in another scope, a name holding '/' is rejected, and a Keras RNN's cell weights
sit under scope/rnn/cell."""
import numpy as np
import tensorflow as tf


class Cell(tf.keras.layers.Layer):
    def __init__(self, units, name=None):
        super().__init__(name=name)
        self.output_size = units
        self.state_size = [units]

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=[input_shape[-1] + self.output_size, self.output_size],
                                      initializer=tf.constant_initializer(0.1))

    def call(self, inputs, states):
        out = tf.tanh(tf.matmul(tf.concat([inputs, states[0]], 1), self.kernel))
        return out, [out]


rnn = tf.keras.layers.RNN(Cell(3, name="lstm_cell"), return_sequences=True, return_state=True, name="rnn")
dense = tf.keras.layers.Dense(2, kernel_initializer="ones", name="dense")


@tf.function
def step(x):
    with tf.keras.name_scope("row_lstm"):
        _, state = rnn(x)
        with tf.keras.name_scope("head"):
            y = dense(state)
    return y


x = tf.constant(np.linspace(-1, 1, 2 * 4 * 5).reshape(2, 4, 5).astype(np.float32))
print("y", np.round(step(x).numpy(), 5))
print([w.path for w in rnn.weights], [w.name for w in rnn.weights])
print([w.path for w in dense.weights])

eager = tf.keras.layers.Dense(1, name="eager")
with tf.keras.name_scope("outer") as scope:
    print(type(scope).__name__, scope.name)
    eager(tf.ones([1, 2]))
with tf.keras.name_scope("elsewhere"):
    eager(tf.ones([1, 2]))
    late = tf.keras.layers.Dense(1, name="late")
late(tf.ones([1, 2]))
print([w.path for w in eager.weights], [w.path for w in late.weights])

try:
    tf.keras.name_scope("a/b")
except ValueError as e:
    print("ValueError", e)
