# ruff: noqa
# face: tf2
# A Keras variable's `name` is its leaf; its `path` holds the names of the layers it was
# built in, which is how a rewrite prints TF1's scoped variable names.
import tensorflow as tf


class Linear(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=[input_shape[1], self.units], initializer="zeros")
        self.b = self.add_weight(name="b", shape=[self.units], initializer="zeros")

    def call(self, x):
        return tf.matmul(x, self.w) + self.b


class Tower(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.d0 = Linear(3, name="d0")
        self.d1 = tf.keras.layers.Dense(2, name="d1")

    def call(self, x):
        return self.d1(self.d0(x))


named = Tower(name="D")
unnamed = Tower()
alone = Linear(4, name="alone")


@tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32)])
def step(x):
    return named(x) + unnamed(x) + tf.reduce_sum(alone(x))


step.get_concrete_function()
print([v.path + ":0" for v in named.trainable_variables])
print([v.name for v in named.trainable_variables])
print([v.path for v in unnamed.trainable_variables])
print([v.path for v in alone.trainable_variables])
