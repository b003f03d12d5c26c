# ruff: noqa
import tensorflow as tf
print(tf.random.normal([2, 3]).shape, tf.random.uniform([4]).dtype, tf.random.uniform([2], maxval=5, dtype=tf.int32).dtype)
x = tf.random.uniform([1000])
print(bool(tf.reduce_min(x) >= 0), bool(tf.reduce_max(x) < 1))
