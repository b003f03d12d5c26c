# ruff: noqa
import tensorflow as tf
x = tf.reshape(tf.range(12), [3, 4])
print(x[:, 1])
print(x[1])
print(x[1:, ::2])
print(x[..., -1])
print(x[tf.newaxis, 0].shape)
