# ruff: noqa
import tensorflow as tf
try:
    tf.keras.optimizers.legacy.SGD
except ImportError as e:
    print('ImportError', str(e)[:60])
