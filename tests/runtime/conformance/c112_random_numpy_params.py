# ruff: noqa
import numpy as np
import tensorflow as tf
a = tf.random.truncated_normal([2], stddev=np.float64(0.5), mean=np.float64(0.1))
b = tf.random.normal([2], stddev=np.float64(0.5))
c = tf.random.uniform([2], np.float64(-1.0), np.float64(1.0))
print(a.dtype, b.dtype, c.dtype)
try:
    tf.random.normal([2], stddev=tf.constant(0.5, tf.float64))
except Exception as e:
    print(type(e).__name__)
d = tf.random.uniform([2], 0, 10, dtype=tf.int32)
print(d.dtype)
