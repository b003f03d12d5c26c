# ruff: noqa
import tensorflow as tf
print(tf.range(5), tf.range(1, 10, 3), tf.range(0.0, 1.0, 0.25))
print(tf.tile(tf.constant([[1, 2]]), [2, 2]))
print(tf.pad(tf.constant([[1, 2]]), [[1, 0], [0, 1]]))
