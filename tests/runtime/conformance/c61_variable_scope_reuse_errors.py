# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
with tf.variable_scope('s'):
    v = tf.get_variable('v', [2])
try:
    with tf.variable_scope('s'):
        tf.get_variable('v', [2])
except ValueError as e:
    print('ValueError', str(e).split('.')[0])
try:
    with tf.variable_scope('t', reuse=True):
        tf.get_variable('w', [2])
except ValueError as e:
    print('ValueError', str(e).split(',')[0])
with tf.variable_scope('s', reuse=tf.AUTO_REUSE):
    print(tf.get_variable('v', [2]) is v, tf.get_variable('u', [1]).name)
