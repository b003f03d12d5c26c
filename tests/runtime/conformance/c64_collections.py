# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
a = tf.Variable(1.0, name='a')
b = tf.Variable(2.0, name='b', trainable=False)
print([v.name for v in tf.global_variables()])
print([v.name for v in tf.trainable_variables()])
