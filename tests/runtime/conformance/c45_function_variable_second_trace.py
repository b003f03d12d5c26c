# ruff: noqa
import tensorflow as tf
@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x
try:
    f(tf.constant(1.0))
except ValueError as e:
    print('ValueError', 'tf.function only supports singleton tf.Variables created on the first call' in str(e))
