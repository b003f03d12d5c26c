# ruff: noqa
# AutoGraph: a Python `while` on a tensor test inside tf.function loops over the names its body
# assigns; a Python test stays a Python loop.
import tensorflow as tf


@tf.function
def powers(x):
    n = tf.shape(x)[0]
    i = tf.constant(0)
    total = tf.constant(0.0)
    while i < n:
        total = total + x[i] * tf.cast(i + 1, tf.float32)
        i += 1
    k = 0
    y = x
    while k < 3:
        y = y * 2.0
        k += 1
    return total, y


print(powers(tf.constant([1.0, 2.0, 4.0])))
