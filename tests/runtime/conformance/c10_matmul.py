# ruff: noqa
import tensorflow as tf
a = tf.constant([[1., 2.], [3., 4.]])
print(tf.matmul(a, a))
print(tf.matmul(a, a, transpose_b=True))
print(a @ a)
