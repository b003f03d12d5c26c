# ruff: noqa
import tensorflow as tf
for m in [0.5, 1, 1.5]:
    try:
        opt = tf.keras.optimizers.SGD(0.1, momentum=m)
        print('ok', m)
    except ValueError as e:
        print('ValueError', m)
