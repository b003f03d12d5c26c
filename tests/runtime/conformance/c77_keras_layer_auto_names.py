# ruff: noqa
import tensorflow as tf
a = tf.keras.layers.Dense(1)
b = tf.keras.layers.Dense(1)
print(a.name, b.name)
class MyBlock(tf.keras.layers.Layer):
    pass
print(MyBlock().name, MyBlock().name)
