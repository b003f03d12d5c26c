# ruff: noqa
import tensorflow as tf

schedules = [
    tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9),
    tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9, staircase=True),
    tf.keras.optimizers.schedules.InverseTimeDecay(0.5, 5, 0.3),
    tf.keras.optimizers.schedules.PolynomialDecay(0.1, 30, 0.01, power=2.0),
    tf.keras.optimizers.schedules.PolynomialDecay(0.1, 30, 0.01, cycle=True),
    tf.keras.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1]),
]
for step in [0, 7, 10, 21, 45]:
    print(step, [float(s(step)) for s in schedules])
print(schedules[0](tf.constant(3)).dtype)
w = tf.Variable([1.0, -2.0])
opt = tf.keras.optimizers.SGD(learning_rate=schedules[1])


@tf.function
def step_fn():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(w))
    opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))


for _ in range(25):
    step_fn()
print(w.numpy(), int(opt.iterations))
