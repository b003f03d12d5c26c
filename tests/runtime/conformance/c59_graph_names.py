# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
a = tf.constant(1.0)
b = tf.constant(2.0, name='b')
c = a * b
d = a * b
print(a.name, b.name, c.name, d.name)
with tf.name_scope('layer'):
    e = tf.add(a, b)
print(e.name, e)
print(c.op.name, c.op.type)
