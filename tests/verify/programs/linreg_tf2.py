import numpy as np
import tensorflow as tf

LEARNING_RATE = 1e-3
X_raw = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y_raw = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
X_ = (X_raw - X_raw.min()) / (X_raw.max() - X_raw.min())
y_ = (y_raw - y_raw.min()) / (y_raw.max() - y_raw.min())
a = tf.Variable(tf.zeros([], tf.float32), name="a")
b = tf.Variable(tf.zeros([], tf.float32), name="b")
optimizer = tf.keras.optimizers.SGD(learning_rate=LEARNING_RATE)


@tf.function(input_signature=[tf.TensorSpec([5], tf.float32), tf.TensorSpec([5], tf.float32)])
def train_op(X, y):
    with tf.GradientTape() as tape:
        y_pred = a * X + b
        loss = tf.constant(0.5) * tf.reduce_sum(tf.square(y_pred - y))
    grads = tape.gradient(loss, [a, b])
    optimizer.apply_gradients(zip(grads, [a, b]))


for e in range(300):
    train_op(X_, y_)
print([a.numpy(), b.numpy()])
