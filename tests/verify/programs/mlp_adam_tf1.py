import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
rng = np.random.RandomState(1)
W1 = rng.uniform(-0.5, 0.5, (4, 16)).astype(np.float32)
W2 = rng.uniform(-0.5, 0.5, (16, 1)).astype(np.float32)
xs = rng.randn(32, 4).astype(np.float32)
ys = (xs @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.1).astype(np.float32)
x = tf.placeholder(tf.float32, [32, 4])
y = tf.placeholder(tf.float32, [32, 1])
with tf.variable_scope("l1"):
    w1 = tf.get_variable("weight", initializer=W1)
    b1 = tf.get_variable("bias", [16], initializer=tf.zeros_initializer)
with tf.variable_scope("l2"):
    w2 = tf.get_variable("weight", initializer=W2)
    b2 = tf.get_variable("bias", [1], initializer=tf.zeros_initializer)
pred = tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) + b2
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(300):
        _, l = sess.run([train, loss], feed_dict={x: xs, y: ys})
        if i % 100 == 0:
            print("step", i, "loss", l)
