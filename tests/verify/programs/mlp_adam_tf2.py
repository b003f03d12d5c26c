import numpy as np
import tensorflow as tf

rng = np.random.RandomState(1)
W1 = rng.uniform(-0.5, 0.5, (4, 16)).astype(np.float32)
W2 = rng.uniform(-0.5, 0.5, (16, 1)).astype(np.float32)
xs = rng.randn(32, 4).astype(np.float32)
ys = (xs @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.1).astype(np.float32)
w1 = tf.Variable(W1, name="l1/weight")
b1 = tf.Variable(tf.zeros([16]), name="l1/bias")
w2 = tf.Variable(W2, name="l2/weight")
b2 = tf.Variable(tf.zeros([1]), name="l2/bias")
opt = tf.keras.optimizers.Adam(1e-3, epsilon=1e-8)


@tf.function
def train(x, y):
    with tf.GradientTape() as tape:
        pred = tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) + b2
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, [w1, b1, w2, b2])
    opt.apply_gradients(zip(grads, [w1, b1, w2, b2]))
    return loss


for i in range(300):
    l = train(xs, ys).numpy()
    if i % 100 == 0:
        print("step", i, "loss", l)
