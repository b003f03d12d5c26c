# ruff: noqa
import tensorflow as tf
x = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
print(tf.nn.max_pool2d(x, 2, 2, 'VALID')[0, :, :, 0])
print(tf.nn.avg_pool2d(x, 3, 2, 'SAME')[0, :, :, 0])
