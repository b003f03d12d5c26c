# ruff: noqa
import tensorflow as tf
t = tf.constant([[1., 2.], [3., 4.]])
print(t)
print(repr(t))
print(t.shape, t.dtype, t.shape.as_list(), t.shape[0])
