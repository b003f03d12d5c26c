# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf
rng = np.random.default_rng(1)
seq = tf.placeholder(tf.float32, [None, 6, 2])
img = tf.placeholder(tf.float32, [None, 4, 4, 3])
k1 = tf.constant(rng.uniform(-1, 1, (2, 2, 3)).astype(np.float32))
dw = tf.constant(rng.uniform(-1, 1, (2, 2, 3, 2)).astype(np.float32))
c1 = tf.nn.conv1d(seq, k1, stride=1, padding='SAME')
c2 = tf.nn.conv1d(value=seq, filters=k1, stride=2, padding='VALID')
d1 = tf.nn.depthwise_conv2d(img, dw, [1, 1, 1, 1], 'VALID')
print(c1.shape, c2.shape, d1.shape)
g = tf.gradients(tf.reduce_sum(c1 * c1) + tf.reduce_sum(c2) + tf.reduce_sum(d1 * d1), [seq, img])
feed = {seq: rng.uniform(-1, 1, (2, 6, 2)), img: rng.uniform(-1, 1, (1, 4, 4, 3))}
with tf.Session() as sess:
    for v in sess.run([c1, c2, d1] + g, feed):
        print(v)
