# ruff: noqa
import tensorflow as tf
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x * x
print(tape.gradient(y, {'x': x}))
print(tape.watched_variables()[0].name)
