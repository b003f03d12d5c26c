# ruff: noqa
import tensorflow as tf
print(tf.pow(tf.constant(3.0), 2))
print(tf.constant([2, 3]) ** 2)
print(tf.pow(tf.constant([4.0, 9.0]), 0.5))
