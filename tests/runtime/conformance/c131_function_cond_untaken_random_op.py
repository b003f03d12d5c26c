# face: tf2
# ruff: noqa
# Inside a tf.function, a random op in the branch a call does not take draws nothing.
import tensorflow as tf


def draws(runs):
    tf.random.set_seed(3)

    @tf.function(input_signature=[tf.TensorSpec([], tf.bool)])
    def step(flag):
        x = tf.ones([1, 8])
        return tf.cond(flag, lambda: tf.nn.dropout(x, rate=0.5, seed=1), lambda: tf.identity(x))

    return [step(f).numpy() for f in runs]


taken = draws([True, False, True])
straight = draws([True, True])
print((taken[2] == straight[1]).all())
print((taken[1] == 1.0).all())
