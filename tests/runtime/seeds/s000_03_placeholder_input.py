# ruff: noqa
# seed 000, block "placeholder + feed_dict" (reads a and b from stdin)
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

a = tf.placeholder(dtype=tf.int32)
b = tf.placeholder(dtype=tf.int32)
c = a + b

a_ = int(input("a = "))
b_ = int(input("b = "))

sess = tf.Session()
c_ = sess.run(c, feed_dict={a: a_, b: b_})
print("a + b = %d" % c_)
