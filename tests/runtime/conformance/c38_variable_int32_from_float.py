# ruff: noqa
import tensorflow as tf
try:
    tf.Variable(0.0, dtype=tf.int32)
except Exception as e:
    print(type(e).__name__, e)
