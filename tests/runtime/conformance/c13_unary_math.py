# ruff: noqa
import tensorflow as tf
x = tf.constant([0.25, 1.0, 4.0])
for f in [tf.square, tf.sqrt, tf.math.rsqrt, tf.exp, tf.math.log, tf.abs, tf.negative, tf.sign]:
    print(f(x))
