# ruff: noqa
# face: tf1
# A tf.cond on a variable reads it when the graph runs, not while it is built.
import tensorflow as tf
training = tf.Variable(True, trainable=False)
x = tf.constant(1.0)
y = tf.cond(training, lambda: x + 10.0, lambda: x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y))
    sess.run(tf.assign(training, False))
    print(sess.run(training), sess.run(y))
