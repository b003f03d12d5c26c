# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.get_variable('x', [2], initializer=tf.constant_initializer([1.0, -1.0]))
gs = tf.train.get_or_create_global_step()
step = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(x * x), global_step=gs)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    for _ in range(3):
        s.run(step)
    print(s.run([x, gs]))
