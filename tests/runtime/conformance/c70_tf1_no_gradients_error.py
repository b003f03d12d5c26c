# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.get_variable('x', [], initializer=tf.zeros_initializer())
y = tf.get_variable('y', [], initializer=tf.zeros_initializer())
try:
    tf.train.GradientDescentOptimizer(0.1).minimize(y * 0 + tf.stop_gradient(x), var_list=[x])
except ValueError as e:
    print('ValueError', str(e).split(',')[0])
