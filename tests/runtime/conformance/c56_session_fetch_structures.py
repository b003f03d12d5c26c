# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
a = tf.constant(1)
b = tf.constant([1.5, 2.5])
op = tf.no_op()
with tf.Session() as sess:
    print(sess.run({'a': a, 'pair': (a, [b, op])}))
    print(sess.run([a]))
