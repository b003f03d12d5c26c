# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.placeholder(tf.float32, [])
y = tf.placeholder(tf.float32, [])
z = x * x
g = tf.gradients(z, [x, y])
print(g)
with tf.Session() as s:
    print(s.run(g[0], {x: 3.0}))
