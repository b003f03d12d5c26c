# face: tf1
# ruff: noqa
import tensorflow as tf

print(tf.logging.get_verbosity(), tf.logging.INFO, tf.logging.WARN, tf.logging.DEBUG)
tf.logging.set_verbosity(tf.logging.INFO)
tf.logging.info("step %d loss %.3f", 3, 0.25)
tf.logging.debug("not shown")
tf.logging.warning("careful")
for i in range(5):
    tf.logging.log_every_n(tf.logging.INFO, "every %d", 2, i)
    tf.logging.log_first_n(tf.logging.INFO, "first %d", 2, i)
print(tf.logging.get_verbosity())
tf.logging.set_verbosity(tf.logging.ERROR)
print(tf.logging.get_verbosity())
