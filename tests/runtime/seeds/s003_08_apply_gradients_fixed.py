# ruff: noqa
# seed 003, block "optimizer.apply_gradients" with float32 x, keyword fixed
import tensorflow as tf

x = tf.Variable(0.0, name = "x", dtype = tf.float32)
a = tf.constant(1.0)
b = tf.constant(-2.0)
c = tf.constant(1.0)

optimizer = tf.keras.optimizers.SGD(learning_rate = 0.01)

for _ in range(100):
    with tf.GradientTape() as  tape:
        y = a * tf.pow(x, 2) + b * x + c
    dy_dx = tape.gradient(y, x)
    optimizer.apply_gradients(grads_and_vars = [(dy_dx, x)])

import sys
tf.print(f"y = {y}; x = {x}", output_stream=sys.stdout)
print(f"y = {y}; x = {x}")
