# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.placeholder(tf.float32, [None, 4])
y = tf.layers.dense(x, 3, activation=tf.nn.relu)
z = tf.layers.dense(y, 2, name='out')
print(y, z)
print([v.name for v in tf.global_variables()])
