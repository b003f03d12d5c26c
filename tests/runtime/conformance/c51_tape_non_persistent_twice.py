# ruff: noqa
import tensorflow as tf
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * x
tape.gradient(y, x)
try:
    tape.gradient(y, x)
except RuntimeError as e:
    print('RuntimeError', e)
