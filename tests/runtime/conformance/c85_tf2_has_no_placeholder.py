# ruff: noqa
# face: tf2
import tensorflow as tf
print(hasattr(tf, 'placeholder'), hasattr(tf, 'Session'), hasattr(tf.compat.v1, 'placeholder'))
try:
    tf.placeholder
except AttributeError as e:
    print(e)
