# ruff: noqa
import tensorflow as tf
a = tf.Variable(1.0, name='a')
b = tf.Variable(2.0, name='b')
opt = tf.keras.optimizers.SGD(0.5)
opt.apply_gradients([(tf.constant(1.0), a), (None, b)])
print(a.numpy(), b.numpy(), opt.iterations.numpy())
