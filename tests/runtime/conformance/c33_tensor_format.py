# ruff: noqa
import tensorflow as tf

t = tf.constant(5)
print('%d' % t, f'{tf.constant(2.5)}', f'{tf.constant(1.0):.2f}', int(t), float(tf.constant(1.5)))
