# ruff: noqa
# face: tf1
# Shapes the graph allowed but the fed values break: the executor raises an OpError.
import numpy as np
import tensorflow as tf

a = tf.placeholder(tf.float32, [None, 1])
b = tf.placeholder(tf.float32, [None, 1])
total = tf.reduce_sum(a - b)
with tf.Session() as sess:
    print(sess.run(total, {a: np.ones((3, 1)), b: np.zeros((3, 1))}))
    try:
        sess.run(total, {a: np.ones((3, 1)), b: np.zeros((4, 1))})
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError", isinstance(e, tf.errors.OpError))
