# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
with tf.variable_scope('outer'):
    with tf.variable_scope('inner'):
        v = tf.get_variable('w', [1], initializer=tf.ones_initializer())
    print(tf.get_variable_scope().name)
print(v.name, repr(tf.get_variable_scope().name))
with tf.variable_scope('outer', reuse=True):
    with tf.variable_scope('inner'):
        print(tf.get_variable('w') is v)
