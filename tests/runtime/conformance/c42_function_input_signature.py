# ruff: noqa
import tensorflow as tf
@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def f(x):
    return x + 1
print(f(1.0), f(2))
print(f.experimental_get_tracing_count())
