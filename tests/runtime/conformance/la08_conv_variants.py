# ruff: noqa
import numpy as np
import tensorflow as tf
rng = np.random.default_rng(0)
# float64: the gradients sum terms that cancel, where float32 noise would exceed the tolerance
seq = tf.Variable(rng.uniform(-1, 1, (2, 7, 3)))
k1 = tf.Variable(rng.uniform(-1, 1, (3, 3, 4)))
img = tf.Variable(rng.uniform(-1, 1, (1, 5, 5, 2)))
dw = tf.Variable(rng.uniform(-1, 1, (3, 3, 2, 2)))
with tf.GradientTape(persistent=True) as tape:
    outs = [tf.nn.conv1d(seq, k1, stride=1, padding='SAME'), tf.nn.conv1d(seq, k1, 2, 'VALID'),
            tf.nn.depthwise_conv2d(img, dw, [1, 1, 1, 1], 'SAME'),
            tf.nn.depthwise_conv2d(img, dw[:, :, :, :1], strides=[1, 2, 2, 1], padding='VALID')]
    losses = [tf.reduce_sum(o * o) for o in outs]
for o, l in zip(outs, losses):
    print(o.shape, o.numpy())
    for g in tape.gradient(l, [seq, k1, img, dw]):
        print(None if g is None else g.numpy())
