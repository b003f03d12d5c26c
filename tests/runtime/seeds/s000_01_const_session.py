# ruff: noqa
# seed 000, block "TensorFlow 1+1" (TF1 graph mode)
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

a = tf.constant(1)
b = tf.constant(1)
c = a + b

sess = tf.Session()
c_ = sess.run(c)
print(c_)
