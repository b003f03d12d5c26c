# ruff: noqa
import tensorflow as tf
x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
print(tf.gather(x, [2, 0]))
print(tf.gather(x, [1], axis=1))
print(tf.one_hot([0, 2], 3))
print(tf.one_hot([1], 2, dtype=tf.int32))
