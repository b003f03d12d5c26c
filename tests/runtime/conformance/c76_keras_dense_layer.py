# ruff: noqa
import tensorflow as tf
layer = tf.keras.layers.Dense(3, activation='relu', kernel_initializer='ones', bias_initializer='zeros', name='d')
y = layer(tf.constant([[1.0, -2.0]]))
print(y)
print([(v.name, v.path, v.shape) for v in layer.variables])
print(layer.name, layer.built)
