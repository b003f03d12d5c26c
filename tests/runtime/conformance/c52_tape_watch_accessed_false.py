# ruff: noqa
import tensorflow as tf
x = tf.Variable(3.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    y = x * x
print(tape.gradient(y, x))
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = x * x
print(tape.gradient(y, x))
