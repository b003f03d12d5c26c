# ruff: noqa
import tensorflow as tf
x = tf.constant(3)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print(tape.gradient(y, x))
