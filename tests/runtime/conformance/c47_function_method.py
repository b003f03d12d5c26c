# ruff: noqa
import tensorflow as tf
class C(tf.Module):
    def __init__(self):
        self.w = tf.Variable(3.0)
    @tf.function
    def __call__(self, x):
        return self.w * x
c = C()
print(c(tf.constant(2.0)), c(tf.constant(3.0)))
