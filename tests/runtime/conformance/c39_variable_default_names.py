# ruff: noqa
import tensorflow as tf
a = tf.Variable(1.0)
b = tf.Variable(2.0)
print(a.name, b.name)
with tf.name_scope('scope'):
    c = tf.Variable(3.0, name='c')
print(c.name)
