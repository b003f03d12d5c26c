# ruff: noqa
import tensorflow as tf
v = tf.Variable(1.0)
v.assign(5.0)
print(v.numpy())
v.assign_add(2.0)
v.assign_sub(0.5)
print(v.numpy())
print(v + 1, v * v)
