# ruff: noqa
import tensorflow as tf
class M:
    def __init__(self):
        self.v = None
    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(2.0)
        return self.v * x
m = M()
print(m(tf.constant(3.0)))
print(m(tf.constant(4.0)))
