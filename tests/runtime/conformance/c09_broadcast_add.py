# ruff: noqa
import tensorflow as tf
a = tf.constant([[1, 2, 3]])
b = tf.constant([[10], [20]])
print(a + b)
