# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.constant(2.0)
g = tf.gradients([x * x, 3 * x], x)
with tf.Session() as s:
    print(s.run(g))
print(tf.gradients(tf.reduce_sum(tf.stack([x, x])), x)[0].name)
