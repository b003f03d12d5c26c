# ruff: noqa
# Two inputs, merged by Concatenate and Add, two outputs; lists and dicts of inputs/outputs,
# arithmetic on KerasTensors, a layer shared by two branches, and Keras's operation order.
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.RandomState(2)
a = tf.keras.Input((3,), name="a")
b = tf.keras.Input((2,), name="b")
db = L.Dense(4, name="db")
da = L.Dense(4, name="da")
hb = db(b)
ha = da(a)
shared = L.Dense(4, name="shared")
sa, sb = shared(ha), shared(hb)
cat = L.Concatenate()([sa, sb])
added = L.add([ha, hb])
scaled = added * 0.5 + 1.0
y = L.Dense(1, name="y")(cat)
z = L.Dense(2, name="z")(scaled)
print(cat.shape, added.shape, scaled.shape, y.shape, z.shape)
model = tf.keras.Model(inputs=[a, b], outputs=[y, z])
print([l.name for l in model.layers])
print([v.path for v in model.weights])
for v in model.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
xa = rng.randn(3, 3).astype(np.float32)
xb = rng.randn(3, 2).astype(np.float32)
np.set_printoptions(precision=7, suppress=True)
out = model([xa, xb])
print(type(out).__name__, [o.numpy() for o in out])
out = model({"a": xa, "b": xb})
print([o.numpy() for o in out])
named = tf.keras.Model(inputs={"a": a, "b": b}, outputs={"z": z, "y": y})
out = named({"b": xb, "a": xa})
print(named.name, sorted(out), out["y"].numpy(), out["z"].numpy())
single = tf.keras.Model(a, da(a))
print(single(xa).numpy(), single([xa]).numpy())
