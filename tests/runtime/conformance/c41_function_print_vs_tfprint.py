# ruff: noqa
import sys
import tensorflow as tf
@tf.function
def f(x):
    print('python print')
    tf.print('tf.print', x, output_stream=sys.stdout)
    return x
f(tf.constant(1))
f(tf.constant(2))
