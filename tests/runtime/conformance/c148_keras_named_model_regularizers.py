# ruff: noqa
import numpy as np
import tensorflow as tf


class Net(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fc1 = tf.keras.layers.Dense(
            3, kernel_initializer=tf.constant_initializer(0.5), bias_initializer=tf.constant_initializer(0.25),
            kernel_regularizer=tf.keras.regularizers.L2(0.01), bias_regularizer=tf.keras.regularizers.L2(0.1),
            name="fc1")
        self.out = tf.keras.layers.Dense(1, kernel_initializer="ones", bias_regularizer=tf.keras.regularizers.L2(0.1),
                                         name="out")

    def call(self, x):
        return self.out(self.fc1(x))


model = Net(name="mlp")
print(model.losses)
y = model(tf.ones([2, 4]))
print([v.path for v in model.variables])
print([v.name for v in model.variables])
print(len(model.losses), [round(float(l), 6) for l in model.losses])
print(round(float(tf.add_n(model.losses)), 6))
optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)


@tf.function
def step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x)) + tf.add_n(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    # Real TF may otherwise run an update before a second read of the same
    # variable in the loss: the printed loss then varies from run to run.
    with tf.control_dependencies([loss]):
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for _ in range(2):
    loss = step(np.ones([2, 4], np.float32))
    weights = {v.path: v for v in model.trainable_variables}
    print(round(float(loss), 5), sorted(weights), [np.round(w.numpy().ravel()[:2], 5).tolist() for w in weights.values()])
