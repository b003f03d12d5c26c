# ruff: noqa
import tensorflow as tf
print(tf.reduce_mean(tf.constant([1, 2])))
print(tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=[0, 1]))
