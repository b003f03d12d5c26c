# ruff: noqa
# AutoGraph converts the user functions and methods a tf.function calls (super() included), but
# not a Keras layer's call(): a tensor `if` there is an error, as in Keras 3.
import tensorflow as tf


def clipped(x, limit):
    if tf.reduce_max(x) > limit:
        x = x * (limit / tf.reduce_max(x))
    return x


class Base:
    def scale(self, x):
        return x * 2.0


class Child(Base):
    def scale(self, x):
        y = super().scale(x)
        if tf.reduce_sum(y) > 0:
            y = clipped(y, 5.0)
        return y


class Gate(tf.keras.layers.Layer):
    def call(self, x):
        if tf.reduce_sum(x) > 0:
            return x
        return -x


child = Child()


@tf.function
def f(x):
    return child.scale(x), clipped(x, 1.0)


print(f(tf.constant([1.0, 4.0])))
print(f(tf.constant([-1.0, 0.5])))

gate = Gate()


@tf.function
def g(x):
    return gate(x)


try:
    g(tf.constant([1.0]))
except TypeError as e:
    print(type(e).__name__)
print(gate(tf.constant([-2.0])))
