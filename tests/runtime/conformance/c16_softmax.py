# ruff: noqa
import tensorflow as tf
x = tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(tf.nn.softmax(x))
print(tf.nn.log_softmax(x))
