# ruff: noqa
import sys
import tensorflow as tf
tf.print(tf.constant(1.0), tf.constant([1.5, 2.0]), (tf.constant(-2.0), tf.constant(1.0)), output_stream=sys.stdout)
tf.print(tf.constant(0.97637), tf.constant(3), tf.constant(1e-8), output_stream=sys.stdout)
tf.print('x =', tf.range(10), output_stream=sys.stdout)
tf.print(tf.reshape(tf.range(4), [2, 2]), output_stream=sys.stdout)
tf.print([tf.constant(1), 2], {'a': tf.constant(True)}, output_stream=sys.stdout)
