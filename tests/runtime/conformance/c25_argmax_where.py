# ruff: noqa
import tensorflow as tf
x = tf.constant([[1, 9, 3], [7, 2, 8]])
print(tf.argmax(x, axis=1), tf.argmin(x, 0))
print(tf.where(x > 5, x, tf.zeros_like(x)))
