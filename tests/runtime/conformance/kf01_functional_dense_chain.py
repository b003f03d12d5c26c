# ruff: noqa
# A functional Dense/Dropout/BatchNormalization chain: layer order, weight paths and shapes as
# Keras 3 builds them, outputs in inference and in training (moving statistics updated).
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.RandomState(0)
inp = tf.keras.Input(shape=(5,), name="features")
hidden = L.Dense(8, activation="relu", name="hidden")(inp)
h = L.Dropout(0.5)(hidden)
bn = L.BatchNormalization()
h = bn(h)
h = L.Dense(4, activation="tanh")(h)
out = L.Dense(2)(h)
model = tf.keras.Model(inp, out)
print(model.name, [type(l).__name__ for l in model.layers])
print([l.name for l in model.layers])
print([(v.path, tuple(v.shape), v.trainable) for v in model.weights])
print([v.path for v in model.trainable_variables])
print(model.inputs[0].shape, model.outputs[0].shape, model.output_shape)
for v in model.trainable_variables:
    v.assign(rng.uniform(-0.6, 0.6, v.shape).astype(np.float32))
x = rng.randn(6, 5).astype(np.float32)
np.set_printoptions(precision=7, suppress=True)
print(model(x).numpy())
print(model(x, training=False).numpy())
print(model.layers[3] is bn, bn.moving_mean.numpy())
# The batch-norm layer shared by a second model (no dropout): training updates its statistics.
stats = tf.keras.Model(inp, bn(hidden))
print([l.name for l in stats.layers], len(bn._inbound_nodes))
print(stats(tf.constant(x), training=True).numpy()[:2])
print(bn.moving_mean.numpy(), bn.moving_variance.numpy())
print(model(x).numpy())
print(model.get_layer("hidden").kernel.shape, model.get_layer(index=0).name)
