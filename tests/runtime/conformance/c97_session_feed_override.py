# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
a = tf.constant(2.0)
b = a * 3.0
c = b + 1.0
with tf.Session() as s:
    print(s.run(c), s.run(c, feed_dict={b: 10.0}), s.run([b, c], feed_dict={a: 1.0}))
