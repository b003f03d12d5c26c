# ruff: noqa
# TF 2.21 refuses a symbolic tensor as a Python bool with OperatorNotAllowedInGraphError in any graph.
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.bool)
try:
    bool(x)
except Exception as e:
    print(type(e).__name__, str(e)[:60])
with tf.Graph().as_default():
    y = tf.constant(True)
    try:
        bool(y)
    except Exception as e:
        print(type(e).__name__, str(e)[:60])
