# ruff: noqa
import tensorflow as tf
x = tf.constant([1.7, -1.7, 0.5])
print(tf.cast(x, tf.int32))
print(x > 0, tf.equal(x, 0.5))
print(tf.cast(x > 0, tf.float32))
