# face: tf1
# ruff: noqa
# A stateful random op in a cond branch runs only when its branch is taken: a run through the
# other branch leaves its stream where it was.
import tensorflow as tf


def draws(runs):
    tf.reset_default_graph()
    tf.set_random_seed(3)
    flag = tf.placeholder(tf.bool)
    x = tf.ones([1, 8])
    y = tf.cond(flag, lambda: tf.nn.dropout(x, rate=0.5), lambda: tf.identity(x))
    z = tf.cond(flag, lambda: x, lambda: tf.random_uniform([1, 8]))
    with tf.Session() as sess:
        return [sess.run([y, z], {flag: f}) for f in runs]


taken = draws([True, False, True])
straight = draws([True, True])
print((taken[2][0] == straight[1][0]).all())
print((taken[1][0] == 1.0).all(), (taken[0][1] == 1.0).all())
print((taken[1][1] >= 0).all() and (taken[1][1] < 1).all())
