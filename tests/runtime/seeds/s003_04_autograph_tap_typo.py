# ruff: noqa
# seed 003, block "tape in AutoGraph" (the guide writes tap.watch: NameError while tracing)
import sys
import tensorflow as tf

@tf.function
def f(x):
    x = tf.cast(x, tf.float32)
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)

    with tf.GradientTape() as tape:
        tap.watch(x)
        y = a * tf.pow(x, 2) + b * x + c
    dy_dx = tape.gradient(y, x)

    return ((dy_dx, y))

tf.print(f(tf.constant(0.0)), output_stream=sys.stdout)
tf.print(f(tf.constant(1.0)), output_stream=sys.stdout)
