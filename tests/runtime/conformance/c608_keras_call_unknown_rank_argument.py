# face: tf2
# ruff: noqa
# A Keras layer builds from the shapes of all its first call's tensors: one of unknown rank
# (a TensorSpec(None) argument) fails the build, a scalar one builds.
import tensorflow as tf


class Scaled(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=[2], initializer="ones")

    def call(self, x, rate):
        return x * self.w * rate


known = Scaled()


@tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([])])
def scalar(x, rate):
    return known(x, rate)


print(scalar(tf.ones([1, 2]), 0.5).numpy())
unknown = Scaled()


@tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec(None)])
def any_rank(x, rate):
    return unknown(x, rate)


try:
    any_rank(tf.ones([1, 2]), 0.5)
except ValueError as error:
    print("ValueError:", "unknown TensorShape" in str(error))
