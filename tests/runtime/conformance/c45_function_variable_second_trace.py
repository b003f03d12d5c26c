# ruff: noqa
import tensorflow as tf


@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x
try:
    f(tf.constant(1.0))
except ValueError as e:
    print('ValueError', str(e).splitlines()[-1][:60])
