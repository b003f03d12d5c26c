# ruff: noqa
import tensorflow as tf
print(repr(tf.float32), str(tf.int32), tf.float64.name, tf.float32 == tf.float32, tf.as_dtype('int64'))
print(tf.float32.is_floating, tf.int32.is_integer, tf.float32.as_numpy_dtype)
