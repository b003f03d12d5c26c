# ruff: noqa
import tensorflow as tf
class M(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(4, kernel_initializer='ones')
        self.d2 = tf.keras.layers.Dense(1, kernel_initializer='ones')
    def call(self, x):
        return self.d2(self.d1(x))
m = M()
print(m(tf.ones([2, 3])))
print([v.path for v in m.trainable_variables])
