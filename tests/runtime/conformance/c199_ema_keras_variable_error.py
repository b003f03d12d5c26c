# face: tf2
# ruff: noqa
# TF 2.21's ExponentialMovingAverage takes tf.Variables; a Keras 3 model's variables are not:
# apply() fails reading their dtype (a string) as a DType.
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name='fc')])
ema = tf.train.ExponentialMovingAverage(0.99)
print([v.path for v in model.trainable_variables])
ema.apply(model.trainable_variables)
print('not reached')
