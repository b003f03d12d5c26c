# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
labels = tf.placeholder(tf.int32, [None])
keep = tf.placeholder(tf.bool, [None])
ids = tf.placeholder(tf.int32, [None])
top = tf.nn.top_k(x, 2)
outs = {'top': top, 'in_top': tf.nn.in_top_k(x, labels, 2), 'in_top_math': tf.math.in_top_k(x, labels, 1),
        'mask': tf.boolean_mask(x, keep), 'seg': tf.segment_sum(x, ids),
        'useg': tf.unsorted_segment_sum(x, ids, 3), 'seqmask': tf.sequence_mask(labels),
        'seqmask5': tf.sequence_mask(labels, 5), 'uniq': tf.unique(ids), 'sort': tf.sort(x, direction='DESCENDING'),
        'argsort': tf.argsort(x), 'gnd': tf.gather_nd(x, [[0, 1], [1, 0]]),
        'snd': tf.scatter_nd([[2], [0]], x[:2], [3, 4]), 'where': tf.where(keep)}
for k, v in outs.items():
    print(k, v)
acc = tf.reduce_mean(tf.cast(tf.nn.in_top_k(x, labels, 1), tf.float32))
loss = (tf.reduce_sum(top.values * [[2., 1.]]) + tf.reduce_sum(outs['mask'] ** 2) + tf.reduce_sum(outs['seg'] * 3.)
        + tf.reduce_sum(outs['useg'] ** 2) + tf.reduce_sum(outs['sort'] * [1., 2., 3., 4.]) + tf.reduce_sum(outs['gnd'])
        + tf.reduce_sum(outs['snd'] * 5.))
g, = tf.gradients(loss, [x])
feed = {x: [[0.1, 0.9, 0.3, 0.9], [2.0, -1.0, 0.5, 0.0], [0.2, 0.2, 0.2, 0.4]], labels: [3, 2, 0],
        keep: [True, False, True], ids: [0, 0, 2]}
with tf.Session() as sess:
    res = sess.run(outs, feed)
    for k in outs:
        print(k, res[k])
    print(sess.run([acc, g], feed))
