# ruff: noqa
import tensorflow as tf
x = tf.constant([1, 2, 3, 4])
print(tf.cumsum(x), tf.cumsum(x, exclusive=True), tf.cumsum(x, reverse=True))
print(tf.maximum(x, 2), tf.minimum(x, 3))
