# face: tf1
# ruff: noqa
import tensorflow as tf
d = tf.placeholder(tf.float32, [None, 2])
ids = tf.placeholder(tf.int32, [None])
outs = [tf.segment_max(d, ids), tf.segment_mean(d, ids), tf.segment_min(d, ids),
        tf.unsorted_segment_max(d, ids, 3), tf.unsorted_segment_mean(d, ids, 3), tf.unsorted_segment_min(d, ids, 3)]
for o in outs:
    print(o.shape, o.dtype.name)
g = tf.gradients(tf.add_n([tf.reduce_sum(o[:2] * [[1., 2.]]) for o in outs]), d)[0]
with tf.Session() as sess:
    feed = {d: [[1., 5.], [3., 2.], [3., 7.], [0., -1.]], ids: [0, 0, 1, 1]}
    for v in sess.run(outs + [g], feed):
        print(v)
