# ruff: noqa
# Layers common in hand-written functional models: Embedding → Conv1D → pooling (1-D and
# global), a Lambda, Reshape; their static shapes, weight paths and the forward pass.
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.RandomState(8)
np.set_printoptions(precision=7, suppress=True)
ids = tf.keras.Input((10,), dtype="int32", name="ids")
emb = L.Embedding(30, 6)(ids)
c = L.Conv1D(5, 3, activation="relu", padding="same")(emb)
p = L.MaxPooling1D(2)(c)
c2 = L.Conv1D(4, 2, strides=2)(p)
g = L.GlobalMaxPooling1D()(c2)
a = L.GlobalAveragePooling1D()(c)
joined = L.concatenate([g, a])
scaled = L.Lambda(lambda t, factor: t * factor, arguments={"factor": 0.5})(joined)
out = L.Dense(2)(L.Reshape((3, 3))(scaled)[:, 0, :])
print(emb.shape, c.shape, p.shape, c2.shape, g.shape, a.shape, joined.shape, scaled.shape, out.shape)
model = tf.keras.Model(ids, out)
print([l.name for l in model.layers])
print([(v.path, tuple(v.shape)) for v in model.weights])
for v in model.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
x = rng.randint(0, 30, (3, 10)).astype(np.int32)
print(model(x).numpy())

img = tf.keras.Input((6, 6, 2))
h = L.Conv2D(3, 3, activation="relu")(img)
gm = L.GlobalMaxPooling2D()(h)
ga = L.GlobalAveragePooling2D(keepdims=True)(h)
pooled = L.AveragePooling1D(2)(L.Reshape((4, 3))(L.Conv2D(3, 3)(h)))
print(h.shape, gm.shape, ga.shape, pooled.shape)
m2 = tf.keras.Model(img, [gm, ga, pooled])
for v in m2.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
print([o.numpy() for o in m2(rng.randn(2, 6, 6, 2).astype(np.float32))])
