# ruff: noqa
import tensorflow as tf
print(tf.zeros([2, 2]), tf.ones([2], tf.int32))
print(tf.fill([2, 3], 7))
print(tf.ones_like(tf.constant([1.5, 2.5])), tf.zeros_like(tf.constant([[1]])))
