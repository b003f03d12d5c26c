# ruff: noqa
import tensorflow as tf
x = tf.ones([1000])
y = tf.nn.dropout(x, rate=0.5)
print(sorted(set(y.numpy().tolist())))
y1 = tf.compat.v1.nn.dropout(x, keep_prob=0.25)
print(sorted(set(y1.numpy().tolist())))
