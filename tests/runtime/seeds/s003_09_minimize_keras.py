# ruff: noqa
# seed 003, block "optimizer.minimize" (Keras 3 optimizers have no minimize)
import tensorflow as tf

x = tf.Variable(0.0, name = "x", dtype = tf.int32)

def f():
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)
    y = a * tf.pow(x, 2) + b * x + c
    return (y)

optimizer = tf.keras.optimizers.SGD(learning_rate = 0.01)

for _ in range(1000):
    optimizer.minimize(f, [x])

tf.print(f"y = {f()}; x = {x}")
