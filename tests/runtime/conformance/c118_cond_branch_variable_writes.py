# ruff: noqa
import numpy as np
import tensorflow as tf

# A variable write inside a tf.cond branch takes effect only when that branch runs.
v = tf.Variable([1.0, 2.0])
n = tf.Variable(0)


@tf.function(input_signature=[tf.TensorSpec(None, tf.bool), tf.TensorSpec([2], tf.float32)])
def step(flag, x):
    def taken():
        v.assign(v * 0.9 + x * 0.1)
        n.assign_add(1)
        return tf.reduce_sum(v)

    def other():
        v.assign_sub(x)
        return tf.reduce_sum(x)

    return tf.cond(flag, taken, other)


for flag in [True, False, True, True, False]:
    out = step(flag, tf.constant([3.0, -1.0]))
    print(flag, out.numpy(), v.numpy(), n.numpy())

# Nested conds: only the innermost taken path writes.
w = tf.Variable(0.0)


@tf.function
def nested(a, b):
    return tf.cond(a, lambda: tf.cond(b, lambda: w.assign_add(1.0), lambda: w.assign_add(10.0)),
                   lambda: w.assign_add(100.0))


for a, b in [(True, True), (True, False), (False, True), (False, False)]:
    print(a, b, nested(tf.constant(a), tf.constant(b)).numpy(), w.numpy())

# Keras BatchNormalization's moving statistics under a cond on the training flag.
bn = tf.keras.layers.BatchNormalization(momentum=0.8)
data = np.random.RandomState(3).randn(8, 3).astype(np.float32)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec(None, tf.bool)])
def norm(x, training):
    return tf.cond(training, lambda: bn(x, training=True), lambda: bn(x, training=False))


for training in [True, False, False, True]:
    y = norm(data, training)
    print(training, np.round(y.numpy()[0], 5), np.round(bn.moving_mean.numpy(), 5),
          np.round(bn.moving_variance.numpy(), 5))
