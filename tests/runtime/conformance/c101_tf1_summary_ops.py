# face: tf1
# ruff: noqa
import os
import tempfile

import tensorflow as tf

print(tf.summary.merge_all())
x = tf.placeholder(tf.float32, [None])
loss = tf.reduce_mean(x * x)
s1 = tf.summary.scalar('loss', loss)
with tf.name_scope('train'):
    s2 = tf.summary.scalar('mean', tf.reduce_mean(x))
s3 = tf.summary.scalar('loss', 2.5 * loss)
h = tf.summary.histogram('x', x)
merged = tf.summary.merge_all()
both = tf.summary.merge([s1, s2])
logdir = tempfile.mkdtemp()
with tf.Session() as sess:
    writer = tf.summary.FileWriter(logdir, sess.graph)
    a, b, m = sess.run([s1, s2, both], feed_dict={x: [1.0, 2.0, 4.0]})
    print(type(a).__name__, a)
    print(b)
    print(m == a + b)
    print(sess.run(s3, feed_dict={x: [0.5]}))
    full = sess.run(merged, feed_dict={x: [3.0]})
    writer.add_summary(full, 7)
    writer.flush()
    writer.close()
    print(len(tf.get_collection(tf.GraphKeys.SUMMARIES)))
    print(len([f for f in os.listdir(logdir) if f.startswith('events.out.tfevents.')]))
