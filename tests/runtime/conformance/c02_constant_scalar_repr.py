# ruff: noqa
import tensorflow as tf
print(tf.constant(2))
print(repr(tf.constant(2.5)))
print(tf.constant(True))
