# ruff: noqa
import tensorflow as tf
@tf.function
def f(x):
    return {'a': x, 'b': [x + 1, (x * 2, None)]}
print(f(tf.constant(1)))
