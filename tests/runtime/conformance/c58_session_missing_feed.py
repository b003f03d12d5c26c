# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.placeholder(tf.float32, shape=[2], name='inp')
with tf.Session() as sess:
    try:
        sess.run(x * 2)
    except tf.errors.InvalidArgumentError as e:
        print('InvalidArgumentError')
