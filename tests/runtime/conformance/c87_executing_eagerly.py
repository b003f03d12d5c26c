# ruff: noqa
import tensorflow as tf
print(tf.executing_eagerly())
@tf.function
def f():
    print(tf.executing_eagerly())
    return 1
f()
tf.compat.v1.disable_eager_execution()
print(tf.executing_eagerly())
