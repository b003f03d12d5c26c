# ruff: noqa
import tensorflow as tf
v = tf.Variable(1.0, name='a')
print(v)
print(repr(tf.Variable([1, 2])))
print(v.name, v.dtype, v.shape, v.trainable)
