# ruff: noqa
# AutoGraph: a Python `if` on a tensor inside tf.function traces both branches (their Python side
# effects run once each, at trace time) and selects the names they assign; `and`/`or`/`not` on
# tensors become logical ops; a Python test stays plain Python.
import tensorflow as tf


@tf.function
def classify(x, scale):
    if tf.reduce_sum(x) > 0 and tf.reduce_max(x) < 100.0:
        print("tracing the positive branch")
        y = x * scale
        label = 1
    elif not tf.reduce_any(x > -1.0):
        y = x - 1.0
        label = -1
    else:
        y = tf.zeros_like(x)
        label = 0
    if scale > 1:
        y = y + 0.5
    return y, label


print(classify(tf.constant([1.0, 2.0]), 2))
print(classify(tf.constant([-3.0, -2.0]), 2))
print(classify(tf.constant([-3.0, 5.0]), 1))
print(classify(tf.constant([300.0, 5.0]), 1))


@tf.function
def only_one_branch(x):
    if tf.reduce_sum(x) > 0:
        z = x
    return z


try:
    only_one_branch(tf.constant([1.0]))
except ValueError as e:
    print("ValueError", "must also be initialized in the else branch" in str(e))


@tf.function
def dtype_mismatch(x):
    if tf.reduce_sum(x) > 0:
        z = 1.0
    else:
        z = 2
    return z


try:
    print(dtype_mismatch(tf.constant([1.0])))
except (TypeError, ValueError) as e:
    print(type(e).__name__)


training = tf.Variable(True, trainable=False)


@tf.function
def noisy(x):
    if training:
        y = x * 2.0
    else:
        y = x
    return y


print(noisy(tf.constant(1.0)))
training.assign(False)
print(noisy(tf.constant(1.0)))
