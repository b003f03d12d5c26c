"""tf.cond takes a Python bool eagerly but not where it builds a graph: a tf.function raises
TypeError for it, while a NumPy bool is taken and an int is refused as a non-bool predicate."""
import numpy as np
import tensorflow as tf


def attempt(label, fn):
    try:
        print(label, fn().numpy())
    except (TypeError, tf.errors.InvalidArgumentError) as error:
        print(label, type(error).__name__)


print("eager bool", tf.cond(False, lambda: tf.constant(1), lambda: tf.constant(2)).numpy())


@tf.function
def with_bool(flag):
    return tf.cond(flag, lambda: tf.constant(1), lambda: tf.constant(2))


attempt("graph bool", lambda: with_bool(False))
attempt("graph numpy bool", lambda: with_bool(np.bool_(True)))
attempt("graph tensor", lambda: with_bool(tf.constant(False)))
