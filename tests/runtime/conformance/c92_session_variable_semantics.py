# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
v = tf.Variable(1.0, name='v')
inc = tf.assign_add(v, 1.0)
double = tf.assign(v, v * 2.0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(inc), sess.run(v))
    print(sess.run(double), sess.run(v))
    print(v, v.initializer.name, v.initial_value.name)
