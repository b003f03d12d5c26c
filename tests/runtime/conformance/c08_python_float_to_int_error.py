# ruff: noqa
import tensorflow as tf
try:
    tf.constant(2) * 0.5
except Exception as e:
    print(type(e).__name__, e)
