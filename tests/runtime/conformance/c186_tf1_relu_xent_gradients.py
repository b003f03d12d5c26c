# face: tf1
"""tf.gradients of a ReLU MLP's softmax cross-entropy in a Session: ReLU's gradient passes -0.0
through units that are off; the cross-entropy gradient is the forward's softmax - labels."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
t = tf.placeholder(tf.float32, [None, 2])
w1 = tf.Variable([[1.0, -1.0], [0.5, -2.0], [-1.0, 0.25]])
w2 = tf.Variable([[1.0, -1.0], [2.0, 0.5]])
h = tf.nn.relu(tf.matmul(x, w1))
logits = tf.matmul(h, w2)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=t, logits=logits))
gh, gw1, gw2 = tf.gradients(loss, [h, w1, w2])
dh = tf.gradients(tf.reduce_sum(h * tf.constant([-1.0, 1.0])), x)[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], np.float32), t: [[1.0, 0.0], [0.0, 1.0]]}
    for name, value in zip(["loss", "gh", "gw1", "gw2", "dh"], sess.run([loss, gh, gw1, gw2, dh], feed)):
        print(name, np.round(value, 6), "signbit", np.signbit(value).any())
