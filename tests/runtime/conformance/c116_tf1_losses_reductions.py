# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf

labels = tf.constant([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
preds = tf.placeholder(tf.float32, [3, 2])
w = tf.constant([[1.0], [0.0], [2.0]])
R = tf.losses.Reduction
losses = []
for reduction in [R.NONE, R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE, R.SUM_BY_NONZERO_WEIGHTS]:
    losses.append(tf.losses.huber_loss(labels, preds, weights=w, delta=0.5, reduction=reduction))
    losses.append(tf.losses.mean_squared_error(labels, preds, weights=w, reduction=reduction))
losses.append(tf.losses.log_loss(labels, tf.sigmoid(preds)))
losses.append(tf.losses.hinge_loss(labels, preds, weights=2.0))
losses.append(tf.losses.absolute_difference(labels, preds, weights=tf.zeros([3, 2])))
losses.append(tf.losses.compute_weighted_loss(tf.abs(preds), weights=w))
extra = tf.losses.mean_squared_error(labels, preds, loss_collection=None)
print(len(tf.losses.get_losses()), len(tf.get_collection(tf.GraphKeys.LOSSES)))
grad = tf.gradients(losses[1] + losses[0], preds)[0]
with tf.Session() as sess:
    values = sess.run(losses + [grad], {preds: np.array([[0.2, 1.9], [0.4, -0.3], [2.0, 0.7]], np.float32)})
    for v in values:
        print(np.round(v, 5).tolist())
    print(sess.run(tf.losses.get_total_loss(), {preds: np.ones((3, 2), np.float32)}))
