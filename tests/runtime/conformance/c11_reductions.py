# ruff: noqa
import tensorflow as tf
x = tf.constant([[1., 2., 3.], [4., 5., 6.]])
for f in [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min, tf.reduce_prod]:
    print(f(x), f(x, axis=0), f(x, axis=1, keepdims=True))
