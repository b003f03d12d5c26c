# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
a = tf.constant([1, 2])
v = tf.Variable(3)
sess = tf.InteractiveSession()
sess.run(tf.global_variables_initializer())
print(a.eval(), v.eval())
tf.assign(v, 5).eval()
print(v.eval())
sess.close()
