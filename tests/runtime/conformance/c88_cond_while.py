# ruff: noqa
import tensorflow as tf
print(tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2)))
print(tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), [tf.constant(0), tf.constant(0)]))
