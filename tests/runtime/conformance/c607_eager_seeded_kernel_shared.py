# face: tf2
# ruff: noqa
# Eagerly, calls of one random op type with the same explicit seed share a kernel whose numbers
# go on; another op type, a tf.function's ops, and a layer built while a step is traced start over.
import numpy as np
import tensorflow as tf

a = tf.random.normal([2], seed=1)
b = tf.random.normal([2], seed=1)
print(bool((a.numpy() == b.numpy()).all()))
c = tf.random.uniform([2], seed=1)
d = tf.random.uniform([2], seed=1)
print(bool((c.numpy() == d.numpy()).all()))


@tf.function
def twice():
    return tf.random.normal([2], seed=5), tf.random.normal([2], seed=5)


e, f = twice()
print(bool((e.numpy() == f.numpy()).all()))
tf.random.set_seed(2)
g = tf.random.normal([2], seed=1)
tf.random.set_seed(2)
h = tf.random.normal([2], seed=1)
print(bool((g.numpy() == h.numpy()).all()))


class Scaled(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=[2], initializer=lambda shape, dtype: tf.random.normal(shape, seed=7))

    def call(self, x):
        return x * self.w


first, second = Scaled(), Scaled()


@tf.function
def step(x):
    return first(x) + second(x)


step(tf.ones([2]))
print(bool((first.w.numpy() == second.w.numpy()).all()))
eager_first, eager_second = Scaled(), Scaled()
eager_first(tf.ones([2]))
eager_second(tf.ones([2]))
print(bool((eager_first.w.numpy() == eager_second.w.numpy()).all()))
