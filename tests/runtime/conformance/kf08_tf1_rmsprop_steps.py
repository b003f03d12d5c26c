# ruff: noqa
# face: tf1
# TF1's RMSPropOptimizer (the ApplyRMSProp kernels): the mean square starts at ones, epsilon
# 1e-10 inside the square root; plain, with momentum, centered; slots and values step by step.
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=7, suppress=False)
rng = np.random.RandomState(6)
grads = [rng.randn(6).astype(np.float32) * s for s in (1e-3, 1.0, 30.0)]
for kw in [dict(), dict(momentum=0.9), dict(centered=True), dict(decay=0.8, epsilon=1e-6),
           dict(centered=True, momentum=0.5)]:
    tf.reset_default_graph()
    v = tf.Variable(np.linspace(-1, 1, 6).astype(np.float32), name="v")
    g = tf.placeholder(tf.float32, [6])
    opt = tf.train.RMSPropOptimizer(0.01, **kw)
    train = opt.apply_gradients([(g, v)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(kw, sorted(opt.get_slot_names()), sess.run(opt.get_slot(v, "rms")))
        for i in range(12):
            sess.run(train, {g: grads[i % 3] * (1 + 0.1 * i)})
        print("  v", sess.run(v))
        print("  slots", [sess.run(opt.get_slot(v, n)) for n in sorted(opt.get_slot_names())])

tf.reset_default_graph()
x = tf.constant(rng.randn(32, 5).astype(np.float32))
y = tf.constant(rng.randn(32, 1).astype(np.float32))
w1 = tf.Variable(rng.uniform(-0.5, 0.5, (5, 8)).astype(np.float32))
w2 = tf.Variable(rng.uniform(-0.5, 0.5, (8, 1)).astype(np.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2) - y))
train = tf.train.RMSPropOptimizer(0.005, momentum=0.9).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print([float(sess.run([loss, train])[0]) for _ in range(8)])
