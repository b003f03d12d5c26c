# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.placeholder(tf.float32, [None, 3], name='x')
print(x)
print(x.shape, x.shape.as_list(), x.shape[0], x.shape[1])
y = tf.matmul(x, tf.ones([3, 2]))
print(y.shape)
