# ruff: noqa
import tensorflow as tf
try:
    tf.keras.optimizers.SGD(learning_rate=1)
except ValueError as e:
    print('ValueError')
opt = tf.keras.optimizers.Adam()
print(opt.learning_rate)
print(opt.iterations)
