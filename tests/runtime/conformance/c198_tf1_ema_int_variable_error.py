# face: tf1
# ruff: noqa
# TF averages only half, float and double variables: a global step in the list is a TypeError.
import tensorflow as tf

w = tf.Variable([1.0, 2.0], name='w')
global_step = tf.Variable(0, trainable=False, name='global_step')
ema = tf.train.ExponentialMovingAverage(0.99, global_step)
print(ema.apply([w]).name)
ema.apply([w, global_step])
print('not reached')
