# ruff: noqa
import tensorflow as tf
@tf.function
def f(x):
    try:
        x.numpy()
    except Exception as e:
        print(type(e).__name__)
    return x
f(tf.constant(1.0))
