# ruff: noqa
import tensorflow as tf
@tf.function
def f(x):
    return tf.constant(1.0) * x
try:
    f(tf.constant(2))
except Exception as e:
    print(type(e).__name__)
