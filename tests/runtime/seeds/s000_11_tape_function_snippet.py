# ruff: noqa
# seed 000, block "GradientTape inside tf.function"
import tensorflow as tf

x = tf.Variable(3.)
@tf.function
def grad():
    with tf.GradientTape() as tape:
        y = tf.square(x)
    y_grad = tape.gradient(y, x)
    return y_grad

print(grad())
