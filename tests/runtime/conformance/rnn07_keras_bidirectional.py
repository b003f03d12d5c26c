# face: tf2
"""Keras 3 Bidirectional over LSTM/GRU/SimpleRNN: forward_/backward_ copies and their weight
paths, directions starting from different values, merge modes, returned states, gradients."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.sin(np.arange(2 * 4 * 3) * 0.5).reshape(2, 4, 3).astype(np.float32))
layers = [
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(3, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2, return_state=True), merge_mode="sum"),
    tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, return_sequences=True), merge_mode=None),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2, return_state=True, return_sequences=True),
                                  merge_mode="ave"),
]
for layer in layers:
    layer(x)
    print(layer.name, layer.forward_layer.name, layer.backward_layer.name, layer.backward_layer.go_backwards)
    print([(w.path, tuple(w.shape)) for w in layer.weights])
fw, bw = layers[0].forward_layer.weights[0].numpy(), layers[0].backward_layer.weights[0].numpy()
print("directions differ", not np.allclose(fw, bw))
for k, layer in enumerate(layers):
    layer.set_weights([np.cos(np.arange(w.numpy().size) * 0.37 + k).reshape(w.shape) * 0.4 for w in layer.weights])
with tf.GradientTape() as tape:
    outs = [layer(x) for layer in layers]
    loss = tf.add_n([tf.reduce_sum(tf.sin(t)) for t in tf.nest.flatten(outs)])
for o in tf.nest.flatten(outs):
    print(o.numpy())
variables = [w for layer in layers for w in layer.trainable_weights]
for v, g in zip(variables, tape.gradient(loss, variables)):
    print("grad", v.path, g.numpy().ravel()[:4])
try:
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2), merge_mode="max")
except ValueError as e:
    print(type(e).__name__)
