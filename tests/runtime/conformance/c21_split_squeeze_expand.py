# ruff: noqa
import tensorflow as tf
x = tf.reshape(tf.range(8), [2, 4])
print(tf.split(x, 2, axis=1))
print(tf.squeeze(tf.constant([[[1], [2]]])))
print(tf.expand_dims(tf.constant([1, 2]), 0).shape, tf.expand_dims(tf.constant([1, 2]), -1).shape)
