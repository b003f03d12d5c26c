# ruff: noqa
# Training a functional model with a tape, in eager mode and in a tf.function; the Keras
# optimizer's variables follow the model's trainable variables.
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.RandomState(4)
np.set_printoptions(precision=7, suppress=True)
inp = tf.keras.Input((4,))
h = L.Dense(6, activation="tanh")(inp)
out = L.Dense(1)(h)
model = tf.keras.Model(inp, out)
for v in model.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
x = rng.randn(16, 4).astype(np.float32)
y = (x[:, :1] * 2 - x[:, 1:2]).astype(np.float32)
opt = tf.keras.optimizers.Adam(0.05)
mse = tf.keras.losses.MeanSquaredError()


def step():
    with tf.GradientTape() as tape:
        loss = mse(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for i in range(5):
    print(i, step().numpy())
fast = tf.function(step)
for i in range(5):
    print(i, fast().numpy())
print([v.path for v in opt.variables])
print(model.layers[2].bias.numpy(), model(x[:2]).numpy())
