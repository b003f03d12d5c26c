# face: tf1
# ruff: noqa
# TF1 graph checks: an assert runs as a control dependency of what is fetched and raises
# InvalidArgumentError when its condition fails; one on constants fails as the graph is built.
# tf.Print passes its input through (its message goes to stderr, not compared here).
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
check = tf.assert_non_negative(x, message="x must be non-negative")
rank = tf.assert_equal(tf.shape(x)[0], 3)
with tf.control_dependencies([check, rank]):
    total = tf.reduce_sum(x)
shown = tf.Print(total * 2.0, [total, x], message="total and x: ", summarize=2)
grad = tf.gradients(shown, x)[0]
positive = tf.debugging.assert_positive(x)
order = tf.assert_less(x, 10.0, data=[x], summarize=5)
with tf.Session() as sess:
    print(sess.run([total, shown, grad], {x: [1.0, 2.0, 3.0]}))
    for bad in ([1.0, -2.0, 3.0], [1.0, 2.0]):
        try:
            sess.run(total, {x: bad})
        except tf.errors.InvalidArgumentError:
            print("caught InvalidArgumentError for", bad)
    print(sess.run(shown, {x: [0.0, 0.0, 0.5]}))
    try:
        sess.run(positive, {x: [0.0, 1.0, 2.0]})
    except tf.errors.InvalidArgumentError:
        print("assert_positive failed on a zero")
    print(sess.run(order, {x: [1.0, 2.0, 3.0]}))
    print(check is not None, positive is not None)
try:
    tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
except tf.errors.InvalidArgumentError:
    print("static check failed at construction")
ok = tf.assert_greater(tf.constant(2.0), 1.0)
with tf.Session() as sess:
    print(sess.run(ok))
