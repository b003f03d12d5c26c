# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.get_variable('x', [], initializer=tf.constant_initializer(2.0))
y = tf.get_variable('y', [], initializer=tf.constant_initializer(2.0))
a = tf.train.RMSPropOptimizer(0.01).minimize(x * x)
b = tf.train.AdagradOptimizer(0.1).minimize(y * y)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    for _ in range(5):
        s.run([a, b])
    print(s.run([x, y]))
