# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.placeholder(tf.float32, shape=[2])
y = x * 2
with tf.Session() as sess:
    print(sess.run(y, feed_dict={x: [1, 2]}))
    try:
        sess.run(y, feed_dict={x: [1, 2, 3]})
    except ValueError as e:
        print('ValueError', e)
