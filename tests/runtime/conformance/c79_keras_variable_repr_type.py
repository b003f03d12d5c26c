# ruff: noqa
import tensorflow as tf
class L(tf.keras.layers.Layer):
    def build(self, s):
        self.w = self.add_weight(name='w', shape=(2,), initializer='ones')
    def call(self, x):
        return x * self.w
l = L(name='l')
print(l(tf.constant([1.0, 2.0])))
print(l.w)
print(isinstance(l.w, tf.Variable), l.w.dtype, l.w.shape)
