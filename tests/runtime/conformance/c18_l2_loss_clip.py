# ruff: noqa
import tensorflow as tf
x = tf.constant([3.0, -4.0])
print(tf.nn.l2_loss(x))
print(tf.clip_by_value(x, -1.0, 2.0))
c, n = tf.clip_by_global_norm([x, tf.constant([12.0])], 6.5)
print(c, n)
