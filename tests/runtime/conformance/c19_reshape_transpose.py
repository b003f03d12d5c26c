# ruff: noqa
import tensorflow as tf
x = tf.range(6)
print(tf.reshape(x, [2, 3]))
print(tf.transpose(tf.reshape(x, [2, 3])))
print(tf.reshape(x, [-1, 2]).shape)
