# ruff: noqa
import tensorflow as tf
@tf.function
def f(x):
    print('tracing', x)
    return x * 2
f(1); f(1); f(2)
f(tf.constant(1)); f(tf.constant(5)); f(tf.constant([1, 2]))
print(f.experimental_get_tracing_count())
