# ruff: noqa
# Built Keras layers refuse inputs their InputSpec does not allow, eagerly and on KerasTensors.
import numpy as np
import tensorflow as tf
L = tf.keras.layers
def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:200])
c = L.Conv2D(2, 3)
show("conv build", lambda: c(np.ones((1, 5, 5, 3), np.float32)).shape)
show("conv channels", lambda: c(np.ones((1, 5, 5, 2), np.float32)).shape)
show("conv rank", lambda: L.Conv2D(2, 3)(np.ones((5, 5, 3), np.float32)).shape)
show("pool rank", lambda: L.MaxPooling2D()(np.ones((5, 5, 3), np.float32)).shape)
b = L.BatchNormalization()
show("bn", lambda: b(np.ones((2, 3), np.float32)).shape)
show("bn width", lambda: b(np.ones((2, 4), np.float32)).shape)
show("bn rank", lambda: b(np.ones((2, 3, 1), np.float32)).shape)
show("sym conv", lambda: c(tf.keras.Input((5, 5, 4))).shape)
