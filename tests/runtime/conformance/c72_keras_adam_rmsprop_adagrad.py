# ruff: noqa
import tensorflow as tf
for opt in [tf.keras.optimizers.Adam(0.1), tf.keras.optimizers.RMSprop(0.1), tf.keras.optimizers.Adagrad(0.1), tf.keras.optimizers.Adadelta(1.0)]:
    v = tf.Variable([1.0, -2.0])
    for _ in range(3):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(v * v)
        opt.apply_gradients(zip([t.gradient(loss, v)], [v]))
    print(type(opt).__name__, v.numpy(), [x.path for x in opt.variables])
