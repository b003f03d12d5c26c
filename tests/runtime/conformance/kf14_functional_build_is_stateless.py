# ruff: noqa
# Building a functional model runs nothing: a symbolic training call of Dropout and
# BatchNormalization draws no random numbers from the program's stream, leaves the moving
# statistics and the layers' losses alone.
import numpy as np
import tensorflow as tf

L = tf.keras.layers
tf.random.set_seed(3)
first = tf.random.uniform([4]).numpy()
tf.random.set_seed(3)
inp = tf.keras.Input((3,))
bn = L.BatchNormalization()
reg = L.Dense(3, activity_regularizer="l2", kernel_initializer="ones")
out = L.Dropout(0.5)(bn(reg(inp), training=True), training=True)
model = tf.keras.Model(inp, out)
again = tf.random.uniform([4]).numpy()
print(np.array_equal(first, again), bn.moving_mean.numpy(), bn.moving_variance.numpy(), len(reg.losses))
x = np.ones((2, 3), np.float32)
model(x)
print(bn.moving_mean.numpy(), len(reg.losses), len(model.losses))
