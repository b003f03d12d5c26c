# ruff: noqa
# What Keras 3 rejects in the functional API: a TensorFlow op on a KerasTensor, an input of the
# wrong shape or count, a built layer called on the wrong width, non-KerasTensor model inputs.
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def show(label, f, message=True):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, "|", str(e).splitlines()[0] if message else "")


x = tf.keras.Input((4,), name="x")
dense = L.Dense(3)
model = tf.keras.Model(x, dense(x))
show("tf op on KerasTensor", lambda: tf.nn.relu(x))
show("numpy of KerasTensor", lambda: x.numpy())
show("wrong width", lambda: model(np.ones((2, 5), np.float32)))
show("built layer, wrong width", lambda: dense(np.ones((2, 6), np.float32)))
show("built layer, symbolic wrong width", lambda: dense(tf.keras.Input((2,))))
show("rank 1 input", lambda: model(np.ones((4,), np.float32)).shape, message=False)
show("trailing 1 squeezed", lambda: model(np.ones((2, 4, 1), np.float32)).shape)
a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((2,), name="b")
two = tf.keras.Model([a, b], L.Add()([a, b]))
show("one of two inputs", lambda: two(np.ones((1, 2), np.float32)))
show("three inputs", lambda: two([np.ones((1, 2), np.float32)] * 3))
show("tensor as model input", lambda: tf.keras.Model(tf.ones((1, 4)), x), message=False)
show("dense on rank 1", lambda: L.Dense(2)(tf.keras.Input(batch_shape=(3,))))
show("input without shape", lambda: tf.keras.Input())
