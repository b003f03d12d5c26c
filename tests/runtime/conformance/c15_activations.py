# ruff: noqa
import tensorflow as tf
x = tf.constant([-2.0, -0.5, 0.0, 0.5, 7.0])
for f in [tf.nn.relu, tf.nn.relu6, tf.nn.elu, tf.nn.softplus, tf.sigmoid, tf.tanh]:
    print(f(x))
