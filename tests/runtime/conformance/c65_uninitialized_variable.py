# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
v = tf.get_variable('v', [], initializer=tf.zeros_initializer())
with tf.Session() as s:
    try:
        s.run(v)
    except tf.errors.FailedPreconditionError:
        print('FailedPreconditionError')
