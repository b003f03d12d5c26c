# ruff: noqa
import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as v1
# float64: the normal equations square the condition number, so float32 results differ by rounding order
a = tf.Variable(np.array([[1., 2.], [3., 4.], [5., 7.]]))
b = tf.constant([[1.], [0.], [2.]], tf.float64)
with tf.GradientTape() as t:
    x = tf.linalg.lstsq(a, b)
    y = tf.linalg.lstsq(tf.transpose(a), b[:2], l2_regularizer=0.1)
    loss = tf.reduce_sum(x) + tf.reduce_sum(y * y)
print(x, y, t.gradient(loss, a))
print(tf.linalg.lstsq(tf.stack([a, 2 * a]), tf.stack([b, b]), 0.5))
print(v1.matrix_solve_ls(a, b))
