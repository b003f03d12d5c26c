# ruff: noqa
import tensorflow as tf
opt = tf.keras.optimizers.SGD(0.1)
@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def set_lr(lr):
    opt.learning_rate.assign(lr)
try:
    set_lr(0.5)
except ValueError as e:
    print('ValueError', 'Cannot take the length of shape with unknown rank' in str(e))
@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def set_lr2(lr):
    opt.learning_rate.assign(lr)
set_lr2(0.25)
print(opt.learning_rate.numpy())
