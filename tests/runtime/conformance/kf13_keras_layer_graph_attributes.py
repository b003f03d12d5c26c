# ruff: noqa
# A layer's input/output in the functional graph, a sub-model cut from a model's layers (feature
# extraction), count_params, and the output attribute a Keras model cannot take.
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, "|", str(e).splitlines()[0][:200])


class Named(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.output = L.Dense(2)


show("model attribute named output", lambda: Named())
d = L.Dense(2)
show("output before a call", lambda: d.output)
show("count_params before build", lambda: d.count_params())
x = tf.keras.Input((3,), name="x")
y = d(x)
print(d.output is y, d.input is x, d.count_params())
h = L.Dense(4, activation="relu", name="features")(y)
out = L.Dense(1, name="head")(h)
base = tf.keras.Model(x, out)
print(base.count_params(), base.input is x, base.output is out)
extractor = tf.keras.Model(base.input, base.get_layer("features").output)
print([l.name for l in extractor.layers], [v.path for v in extractor.weights], extractor.output_shape)
rng = np.random.RandomState(9)
for v in base.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
np.set_printoptions(precision=7, suppress=True)
data = rng.randn(2, 3).astype(np.float32)
print(extractor(data).numpy(), base(data).numpy())
frozen = tf.keras.Model(base.input, base.layers[-2].output)
frozen.trainable = False
print(len(frozen.trainable_variables), len(frozen.non_trainable_variables), len(base.trainable_variables))
