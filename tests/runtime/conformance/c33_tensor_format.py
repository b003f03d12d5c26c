# ruff: noqa
import tensorflow as tf
t = tf.constant(5)
print('%d' % t, f'{tf.constant(2.5)}', '{:.2f}'.format(tf.constant(1.0)), int(t), float(tf.constant(1.5)))
