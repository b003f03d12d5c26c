# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf

# TF1 graph mode: an assign created inside a tf.cond branch runs only with its branch.
flag = tf.placeholder(tf.bool, [])
x = tf.placeholder(tf.float32, [2])
v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]))
out = tf.cond(flag, lambda: tf.reduce_sum(tf.assign(v, v * 0.5 + x)),
              lambda: tf.reduce_sum(tf.assign_add(v, x)))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for f in [True, False, True]:
        print(f, sess.run(out, {flag: f, x: [1.0, -2.0]}), sess.run(v))
