# ruff: noqa
# seed 000, blocks "tf.gradients" and "GradientTape in tf.function" (printed here to check values)
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

x = tf.get_variable('x', dtype=tf.float32, shape=[], initializer=tf.constant_initializer(3.))
y = tf.square(x)    # y = x ^ 2
y_grad = tf.gradients(y, x)
print(x)
print(y)
print(y_grad)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y_grad))
