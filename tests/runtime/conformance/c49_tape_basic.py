# ruff: noqa
import tensorflow as tf
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * x + 2.0 * x
print(tape.gradient(y, x))
