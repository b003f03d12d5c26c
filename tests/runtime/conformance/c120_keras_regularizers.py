# ruff: noqa
import numpy as np
import tensorflow as tf

R = tf.keras.regularizers
print(R.l2 is R.L2, R.l1 is R.L1, R.l1_l2 is R.L1L2)
print(R.L2().l2, R.L2(0.3).l2, R.L1L2().l1, R.L1L2().l2, R.L1L2(l1=0.2).get_config(), R.L2(0.01).get_config())
print(R.get(None), type(R.get("l2")).__name__, R.get("l2").l2, type(R.get("L1L2")).__name__,
      type(R.get({"class_name": "L2", "config": {"l2": 0.25}})).__name__)
try:
    R.get("l1_l2")
except ValueError as e:
    print("ValueError", e)
try:
    R.L2(-1.0)
except ValueError as e:
    print("ValueError")

w = tf.constant(np.arange(-3, 3, dtype=np.float32).reshape(2, 3) / 7)
for reg in [R.L2(0.01), R.L1(0.02), R.L1L2(0.01, 0.02), R.L1L2(), R.l2(0.5)]:
    value = reg(w)
    print(type(reg).__name__, value.dtype.name, value.numpy())

kernel = np.random.RandomState(0).randn(2, 3).astype(np.float32)
dense = tf.keras.layers.Dense(3, kernel_initializer=tf.constant_initializer(kernel), bias_initializer="ones",
                              kernel_regularizer=R.L2(0.1), bias_regularizer="l1", activity_regularizer=R.L1(0.01))
print("before", dense.losses)
dense(np.ones((2, 2), np.float32))
print("first", [np.round(l.numpy(), 6) for l in dense.losses])
dense(np.full((4, 2), 2.0, np.float32))
print("second", [np.round(l.numpy(), 6) for l in dense.losses])
dense.kernel.assign(dense.kernel * 2.0)
print("assigned", [np.round(l.numpy(), 6) for l in dense.losses])

conv = tf.keras.layers.Conv2D(2, 2, kernel_initializer="ones", kernel_regularizer=R.l2(0.5))
conv(np.ones((1, 3, 3, 1), np.float32))
print("conv", [l.numpy() for l in conv.losses])
model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones", kernel_regularizer="l2"),
                             tf.keras.layers.Dense(1, kernel_initializer="ones", activity_regularizer="l2")])
model(np.ones((3, 2), np.float32))
print("sequential", [np.round(l.numpy(), 6) for l in model.losses])

# Training with the penalty inside a tf.function and a GradientTape.
layer = tf.keras.layers.Dense(1, kernel_initializer=tf.constant_initializer([[0.5], [-1.0]]),
                              kernel_regularizer=R.L2(0.05))
opt = tf.keras.optimizers.SGD(0.1)
xs = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
ys = np.array([[1.0], [0.0]], np.float32)


@tf.function
def train():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(layer(xs) - ys)) + tf.add_n(layer.losses)
    grads = tape.gradient(loss, layer.trainable_variables)
    opt.apply_gradients(zip(grads, layer.trainable_variables))
    return loss


for _ in range(3):
    print("loss", train().numpy())
print(layer.kernel.numpy().ravel(), tf.add_n(layer.losses).numpy())
