# ruff: noqa
import tensorflow as tf
print(tf.constant(1.5).dtype, tf.constant(3).dtype, tf.constant([1, 2.0]).dtype)
import numpy as np
print(tf.constant(np.float64(1.0)).dtype, tf.constant(np.arange(3)).dtype)
