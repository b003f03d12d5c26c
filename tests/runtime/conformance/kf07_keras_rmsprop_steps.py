# ruff: noqa
# Keras 3 RMSprop step by step: velocity from zeros, epsilon inside the square root, plain and
# centered, with momentum; eagerly (the engine's values are TF's, bit for bit) and in a
# tf.function, where TF's graph optimizer turns lr * g / sqrt(v + eps) into a product with
# rsqrt (Eigen's estimate), a few float32 ulps from the quotient per step; and a small model trained
# for a few steps.
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=7, suppress=False)
rng = np.random.RandomState(5)
grads = [rng.randn(6).astype(np.float32) * s for s in (1e-3, 1.0, 30.0)]
configs = [dict(), dict(momentum=0.9), dict(centered=True), dict(rho=0.8, epsilon=1e-10),
           dict(centered=True, momentum=0.5, epsilon=1e-4)]
for compiled in (False, True):
    for kw in configs:
        v = tf.Variable(np.linspace(-1, 1, 6).astype(np.float32))
        opt = tf.keras.optimizers.RMSprop(0.01, **kw)

        def apply(g):
            opt.apply_gradients([(g, v)])

        apply = tf.function(apply) if compiled else apply
        for i in range(12):
            apply(tf.constant(grads[i % 3] * (1 + 0.1 * i)))
        print(compiled, kw, v.numpy(), [x.path for x in opt.variables[2:]])
        print("  slots", [s.numpy() for s in opt.variables[2:]])

x = rng.randn(32, 5).astype(np.float32)
y = rng.randn(32, 1).astype(np.float32)
for kw in configs[:3]:
    w1 = tf.Variable(rng.uniform(-0.5, 0.5, (5, 8)).astype(np.float32))
    w2 = tf.Variable(rng.uniform(-0.5, 0.5, (8, 1)).astype(np.float32))
    opt = tf.keras.optimizers.RMSprop(0.005, **kw)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2) - y))
        opt.apply_gradients(zip(tape.gradient(loss, [w1, w2]), [w1, w2]))
        return loss

    print(kw, [float(step()) for _ in range(8)])
