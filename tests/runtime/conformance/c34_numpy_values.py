# ruff: noqa
import tensorflow as tf
print(repr(tf.constant(2.0).numpy()), repr(tf.constant([1, 2]).numpy()))
print(tf.constant([[1.5]]).numpy().dtype)
