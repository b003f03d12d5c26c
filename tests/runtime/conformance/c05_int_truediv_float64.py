# ruff: noqa
import tensorflow as tf
print(tf.constant(7) / tf.constant(2))
print(tf.constant(7) // tf.constant(2), tf.constant(-7) % tf.constant(3))
print(tf.constant(7.0) / 2)
