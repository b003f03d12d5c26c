# ruff: noqa
# seed 003, block "minimum in AutoGraph with apply_gradients" (tf.range loop inside tf.function)
import sys
import tensorflow as tf

x = tf.Variable(0.0, name = "x", dtype = tf.float32)
optimizer = tf.keras.optimizers.SGD(learning_rate = 0.01)

@tf.function
def minimizef():
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)
    for _ in tf.range(1000):
        with tf.GradientTape() as tape:
            y = a * tf.pow(x, 2) + b * x + c
        dy_dx = tape.gradient(y, x)
        optimizer.apply_gradients(grads_and_vars = [(dy_dx, x)])
    y = a * tf.pow(x, 2) + b * x + c
    return y

tf.print(minimizef(), output_stream=sys.stdout)
tf.print(x, output_stream=sys.stdout)
