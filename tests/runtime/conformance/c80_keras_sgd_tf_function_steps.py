# ruff: noqa
import tensorflow as tf
w = tf.Variable([1.0, 2.0])
opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def step(x):
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(w * x)
    opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))
    return loss
for i in range(3):
    print(step(tf.constant([1.0, 3.0])).numpy(), w.numpy())
