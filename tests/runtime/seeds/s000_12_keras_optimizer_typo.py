# ruff: noqa
# seed 000, block "optimizers in TF2" (the guide writes tf.keras.optimizer: AttributeError)
import tensorflow as tf

optimizer = tf.keras.optimizer.SGD(learning_rate=0.001)
