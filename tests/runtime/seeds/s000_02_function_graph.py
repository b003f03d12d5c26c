# ruff: noqa
# seed 000, block "TensorFlow 1+1" rewritten with tf.function
import tensorflow as tf

@tf.function
def graph():
    a = tf.constant(1)
    b = tf.constant(1)
    c = a + b
    return c

c_ = graph()
print(c_.numpy())
