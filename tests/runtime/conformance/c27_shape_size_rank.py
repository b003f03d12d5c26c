# ruff: noqa
import tensorflow as tf
x = tf.zeros([2, 3, 4])
print(tf.shape(x), tf.size(x), tf.rank(x))
