# ruff: noqa
# needs: tensorboard
import os
import tempfile

import tensorflow as tf

logdir = tempfile.mkdtemp()
writer = tf.summary.create_file_writer(logdir)
with writer.as_default():
    print(tf.summary.scalar('before', 1.0, step=0).numpy())
writer.close()
writer.close()  # a second close does nothing
writer.flush()  # nor does a flush of a closed writer
for name, use in [('as_default', lambda: writer.as_default().__enter__()),
                  ('set_as_default', lambda: writer.set_as_default()),
                  ('init', lambda: writer.init())]:
    try:
        use()
        print(name, 'ran')
    except RuntimeError as e:
        print(name, 'RuntimeError', 'already closed' in str(e))

other = tf.summary.create_file_writer(tempfile.mkdtemp())
other.set_as_default(step=3)
other.close()
try:
    print('after close', tf.summary.scalar('late', 2.0).numpy())
except tf.errors.NotFoundError as e:
    print('after close NotFoundError', 'does not exist' in str(e))


@tf.function
def log(value):
    with writer.as_default():
        return tf.summary.scalar('traced', value, step=1)


try:
    print('in a function', log(tf.constant(3.0)).numpy())
except Exception as e:
    print('in a function', type(e).__name__)
with writer.as_default():
    pass
