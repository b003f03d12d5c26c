# ruff: noqa
import tensorflow as tf
w = tf.Variable([1.0, 2.0], name='w')
b = tf.Variable(0.5, name='b')

@tf.function
def f(x):
    return tf.reduce_sum(w * x) + b

cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
print(sorted(v.name for v in cf.variables))
print(cf(tf.constant([3.0, 4.0])))
print(f(tf.constant([1.0, 1.0])), f.experimental_get_tracing_count())
