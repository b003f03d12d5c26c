# ruff: noqa
import tensorflow as tf
@tf.function
def f(n):
    s = tf.constant(0)
    for i in tf.range(n):
        s = s + i
    return s
print(f(5))
