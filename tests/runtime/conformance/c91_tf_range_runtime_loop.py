# ruff: noqa
import tensorflow as tf

@tf.function
def f(n):
    s = tf.constant(0)
    t = tf.constant(1.0)
    for i in tf.range(n):
        s = s + i
        t = t * 2.0
    return s, t

print(f(tf.constant(5)))
print(f(tf.constant(3)))
x = tf.Variable(0.0)
opt = tf.keras.optimizers.SGD(0.1)

@tf.function
def train(n):
    for _ in tf.range(n):
        with tf.GradientTape() as tape:
            loss = (x - 2.0) ** 2
        opt.apply_gradients([(tape.gradient(loss, x), x)])
    return x + 0.0

print(train(tf.constant(10)).numpy(), x.numpy(), opt.iterations.numpy())
