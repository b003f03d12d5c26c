# ruff: noqa
import tensorflow as tf
x = tf.Variable(2.0)
y = tf.Variable(3.0)

@tf.function
def f():
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            z = x * x * y
        gx, gy = inner.gradient(z, [x, y])
    return gx, gy, outer.gradient(gx, [x, y])

print(f())
