# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
a = tf.constant(0.)
b = 2 * a
g = tf.gradients(a + b, [a, b], stop_gradients=[a, b])
x = tf.constant([1.0, 2.0])
y = x * x
h = tf.gradients(y, x, grad_ys=tf.constant([10.0, 100.0]))
with tf.Session() as s:
    print(s.run(g), s.run(h))
