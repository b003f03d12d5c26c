# ruff: noqa
import tensorflow as tf
try:
    tf.constant(1.0) + tf.constant(1)
except Exception as e:
    print(type(e).__name__)
