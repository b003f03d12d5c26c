# face: tf2
"""Keras 3 TimeDistributed(Dense) after an LSTM: weight paths, outputs, gradients."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.cos(np.arange(2 * 3 * 4) * 0.3).reshape(2, 3, 4).astype(np.float32))
lstm = tf.keras.layers.LSTM(3, return_sequences=True)
td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2, activation="tanh"))
y = td(lstm(x))
print(y.shape, td.name, [(w.path, tuple(w.shape)) for w in td.weights])
for k, layer in enumerate([lstm, td]):
    layer.set_weights([np.sin(np.arange(w.numpy().size) * 0.41 + k).reshape(w.shape) * 0.5 for w in layer.weights])
with tf.GradientTape() as tape:
    y = td(lstm(x))
    loss = tf.reduce_sum(y * y)
print(y.numpy())
for v, g in zip(td.weights + lstm.weights, tape.gradient(loss, td.weights + lstm.weights)):
    print(v.path, g.numpy().ravel()[:4])
