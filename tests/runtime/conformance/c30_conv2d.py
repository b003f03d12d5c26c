# ruff: noqa
import tensorflow as tf
x = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
w = tf.ones([2, 2, 1, 1])
print(tf.nn.conv2d(x, w, strides=1, padding='VALID')[0, :, :, 0])
print(tf.nn.conv2d(x, w, strides=2, padding='SAME')[0, :, :, 0])
