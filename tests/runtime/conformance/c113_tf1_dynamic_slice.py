# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf

w = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
begin = tf.placeholder(tf.int32, [2])
piece = tf.slice(w, begin, [2, 2])
row = tf.placeholder(tf.int32, [1])
one = tf.slice(tf.reshape(w, [-1]), row, [1])
free = tf.slice(w, begin, [-1, 1])
print(piece.shape, one.shape, free.shape)
loss = tf.reduce_sum(piece * piece) + 3.0 * tf.reduce_sum(one)
grad = tf.gradients(loss, w)[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(piece, {begin: [1, 2]}).tolist())
    print(sess.run(free, {begin: [1, 2]}).tolist())
    print(sess.run(grad, {begin: [0, 1], row: [5]}).tolist())
