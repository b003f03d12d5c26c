# face: tf2
"""ReLU's gradient is the upstream gradient times the mask (TF's ReluGrad): a dead unit passes
-0.0 for a negative upstream gradient and NaN for a NaN one. Softmax cross-entropy's gradient
is the forward's softmax - labels (dense and sparse), and its second derivative goes through
the softmax Jacobian."""
import numpy as np
import tensorflow as tf

x = tf.constant([-1.0, 2.0, -3.0, 0.0, 4.0])
up = tf.constant([-1.0, -1.0, np.nan, -2.0, np.nan])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.relu(x) * up
g = tape.gradient(y, x).numpy()
print("relu grad", g, "signbit", np.signbit(g))

logits = tf.constant([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])
labels = tf.constant([[0.0, 1.0, 0.0], [0.2, 0.3, 0.5]])
with tf.GradientTape(persistent=True) as outer:
    outer.watch(logits)
    with tf.GradientTape() as inner:
        inner.watch(logits)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    g1 = inner.gradient(loss, logits)
    s = tf.reduce_sum(g1 * tf.constant([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]]))
print("xent grad", np.round(g1.numpy(), 6))
print("xent second", np.round(outer.gradient(s, logits).numpy(), 6))

with tf.GradientTape() as tape:
    tape.watch(logits)
    sl = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 2], logits=logits) * [1.0, 3.0])
print("sparse grad", np.round(tape.gradient(sl, logits).numpy(), 6))
