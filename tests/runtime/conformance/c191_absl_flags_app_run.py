# ruff: noqa
# absl's flags, as TF2 code writes TF1's: one registry with tf.compat.v1.flags, no read before
# parsing, app.run parsing every flag before main.
import sys
from absl import app, flags
import tensorflow as tf
flags.DEFINE_integer("steps", 3, "how many")
flags.DEFINE_boolean("fast", False, "hurry")
tf.compat.v1.flags.DEFINE_string("name", "run", "shared registry")
FLAGS = flags.FLAGS
try:
    print(FLAGS.steps)
except flags.Error as e:
    print(type(e).__name__, e)
try:
    flags.DEFINE_integer("steps", 4, "again")
except flags.Error as e:
    print(type(e).__name__)


def main(argv):
    print("steps", FLAGS.steps, FLAGS.fast, FLAGS.name, argv[1:], tf.compat.v1.flags.FLAGS.steps)
    FLAGS.steps = 7
    print(tf.compat.v1.flags.FLAGS.steps, FLAGS.is_parsed())
    return 3


sys.argv = [sys.argv[0], "--steps=5", "--fast", "extra"]
app.run(main)
