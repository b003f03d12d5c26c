# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
v = tf.get_variable('n', [3], dtype=tf.int32)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print(s.run(v))
