# ruff: noqa
import tensorflow as tf
x = tf.Variable(3.0, trainable=False)
with tf.GradientTape() as tape:
    y = x * x
print(tape.gradient(y, x))
