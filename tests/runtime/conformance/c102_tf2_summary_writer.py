# ruff: noqa
# needs: tensorboard
import os
import tempfile

import tensorflow as tf

print(tf.summary.scalar('free', 1.0).numpy())
logdir = tempfile.mkdtemp()
writer = tf.summary.create_file_writer(logdir)
w = tf.Variable(2.0)
step = tf.Variable(0, dtype=tf.int64)


@tf.function
def train():
    with tf.GradientTape() as tape:
        loss = tf.square(w - 5.0)
    w.assign_sub(0.1 * tape.gradient(loss, w))
    step.assign_add(1)
    ok = tf.summary.scalar('loss', loss, step=step)
    tf.summary.histogram('w', w, step=step)
    return loss, ok


with writer.as_default():
    for _ in range(3):
        loss, ok = train()
        print(float(loss), bool(ok))
    print(tf.summary.scalar('eager', w, step=10).numpy())
    try:
        tf.summary.scalar('nostep', w)
    except ValueError as e:
        print('ValueError', e)
writer.flush()
with writer.as_default(step=4):
    print(tf.summary.scalar('default_step', 3.0).numpy())
writer.close()
print(len([f for f in os.listdir(logdir) if f.startswith('events.out.tfevents.')]))
