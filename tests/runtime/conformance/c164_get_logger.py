# ruff: noqa
import tensorflow as tf

logger = tf.get_logger()
print(logger.name, logger.getEffectiveLevel())
logger.setLevel("INFO")
logger.info("hello %s", "there")
tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.DEBUG)
print(tf.compat.v1.logging.get_verbosity(), logger.getEffectiveLevel())
print(hasattr(tf, "logging"), hasattr(tf, "app"), hasattr(tf, "flags"))
