# face: tf1
"""Default scope names restart below a scope once it is left (re-entered by name they repeat,
so reuse=True finds the same variables); a scope object re-entered keeps its counts."""
import tensorflow as tf


def block():
    with tf.variable_scope(None, default_name="blk"):
        return tf.get_variable("w", [1])

with tf.variable_scope("m") as m:
    a, b = block(), block()
with tf.variable_scope("m", reuse=True):
    c, d = block(), block()
try:
    with tf.variable_scope(m):
        block()
except ValueError as err:
    print("re-entered object:", "m/blk/w already exists" in str(err))
with tf.variable_scope("m", reuse=True) as m2:
    with tf.variable_scope(m2):
        e = block()
    f = block()
with tf.variable_scope("m"):
    with tf.variable_scope("inner"):
        g = block()
    with tf.variable_scope("inner", reuse=True):
        h = block()
print([v.name for v in (a, b, c, d, e, f, g, h)])
print(c is a, d is b, h is g)
