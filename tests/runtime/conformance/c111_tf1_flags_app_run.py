# face: tf1
# ruff: noqa
import sys

import tensorflow as tf

sys.argv = ['prog', '--steps', '5', '--verbose', '--lr=0.5', '--nofancy', 'extra']
flags = tf.app.flags
flags.DEFINE_integer('steps', 30, 'number of steps')
flags.DEFINE_float('lr', 0.1, 'learning rate')
flags.DEFINE_string('name', 'abc', 'a name')
flags.DEFINE_boolean('verbose', False, 'talk')
flags.DEFINE_bool('fancy', True, 'fancy')
FLAGS = flags.FLAGS
print(FLAGS.steps, FLAGS.lr, FLAGS.name, FLAGS.verbose, FLAGS.fancy)
FLAGS.name = 'changed'
print(tf.flags.FLAGS.name)
trace = tf.trace(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
cm = tf.confusion_matrix([0, 1, 1], [1, 1, 0])


def main(argv):
    print('main', argv[1:], FLAGS.steps)
    with tf.Session() as sess:
        print(sess.run([trace, cm]))
    print('done')


tf.app.run(main)
print('not reached')
