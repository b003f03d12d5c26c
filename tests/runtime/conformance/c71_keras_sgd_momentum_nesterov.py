# ruff: noqa
import tensorflow as tf
for nest in [False, True]:
    v = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=nest)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(2.0), v)])
    print(v.numpy())
