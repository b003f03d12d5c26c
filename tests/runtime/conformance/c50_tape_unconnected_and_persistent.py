# ruff: noqa
import tensorflow as tf
x = tf.Variable(3.0)
z = tf.Variable(1.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * x
print(tape.gradient(y, [x, z]))
print(tape.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO))
