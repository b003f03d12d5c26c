# face: tf2
"""Keras 3 SimpleRNN/LSTM/GRU/RNN(cell) and Embedding: weight paths and shapes, default biases
(LSTM unit_forget_bias, GRU reset_after), orthogonal recurrent kernels, outputs and states
with fixed weights, go_backwards, and gradients through time under a tape and tf.function."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.sin(np.arange(2 * 4 * 3).reshape(2, 4, 3)).astype(np.float32))
layers = {
    "simple": tf.keras.layers.SimpleRNN(5, return_sequences=True),
    "lstm": tf.keras.layers.LSTM(5, return_state=True),
    "gru": tf.keras.layers.GRU(5, return_sequences=True, return_state=True, go_backwards=True),
    "cell": tf.keras.layers.RNN(tf.keras.layers.LSTMCell(3), return_sequences=True),
    "gru_before": tf.keras.layers.GRU(2, reset_after=False),
}
for name, layer in layers.items():
    layer(x)
    for w in layer.weights:
        print(name, w.path, tuple(w.shape))
lstm_bias = layers["lstm"].weights[2].numpy()
print("lstm bias", lstm_bias[:5], lstm_bias[5:10], lstm_bias[10:].max())
print("gru bias", layers["gru"].weights[2].numpy().max())
u = layers["lstm"].weights[1].numpy()
print("orthogonal", u.shape, np.allclose(u.T @ u, np.eye(20), atol=1e-5) or np.allclose(u @ u.T, np.eye(5), atol=1e-5))
for k, layer in enumerate(layers.values()):
    layer.set_weights([np.cos(np.arange(w.numpy().size) * 0.29 + k).reshape(w.shape) * 0.5 for w in layer.weights])

emb = tf.keras.layers.Embedding(6, 3)
ids = tf.constant([[1, 5, 0], [2, 2, 4]])
print("embedding", emb(ids).shape, emb.weights[0].path, float(tf.reduce_max(tf.abs(emb.embeddings))) <= 0.05)
emb.set_weights([np.arange(18, dtype=np.float32).reshape(6, 3) / 10])
print(emb(ids).numpy())
print(emb(np.array([3.0, 1.0])).numpy())
print(tf.nn.embedding_lookup(emb.embeddings, [[0, 5], [5, 5]]).numpy())


def run(inputs):
    outs = [layer(inputs) for layer in layers.values()]
    return outs, tf.add_n([tf.reduce_sum(tf.sin(t)) for t in tf.nest.flatten(outs)])


for o in tf.nest.flatten(run(x)[0]):
    print(o.numpy())
variables = [w for layer in layers.values() for w in layer.trainable_weights] + [emb.embeddings]
with tf.GradientTape() as tape:
    tape.watch(x)
    _, loss = run(x)
    loss += tf.reduce_sum(tf.square(emb(ids))) + tf.reduce_sum(tf.nn.embedding_lookup(emb.embeddings, [1, 1, 3]))
grads = tape.gradient(loss, variables + [x])
for v, g in zip(variables + [x], grads):
    print("grad", getattr(v, "path", "x"), tf.convert_to_tensor(g).numpy().ravel()[:6])


@tf.function
def step(inputs):
    with tf.GradientTape() as t:
        _, value = run(inputs)
    return value, t.gradient(value, variables[:3])


value, g = step(x)
print("function", value.numpy(), [gi.numpy().ravel()[:3] for gi in g])
