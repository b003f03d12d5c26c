# ruff: noqa
# A functional convolutional model: static output shapes of Conv2D/MaxPooling2D/Flatten with a
# free batch dimension, weights in graph order, and the forward pass.
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.RandomState(1)
images = tf.keras.Input((8, 8, 2))
c1 = L.Conv2D(3, 3, activation="relu", padding="same")(images)
p1 = L.MaxPooling2D()(c1)
c2 = L.Conv2D(4, (3, 3), strides=1)(p1)
p2 = L.AveragePooling2D(pool_size=2)(c2)
flat = L.Flatten()(p2)
logits = L.Dense(3)(flat)
print(images.shape, c1.shape, p1.shape, c2.shape, p2.shape, flat.shape, logits.shape)
model = tf.keras.Model(inputs=images, outputs=logits)
print([l.name for l in model.layers])
print([(v.path, tuple(v.shape)) for v in model.weights])
for v in model.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
x = rng.randn(2, 8, 8, 2).astype(np.float32)
np.set_printoptions(precision=7, suppress=True)
print(model(x).numpy())
print(tf.nn.softmax(model(x)).numpy().sum(axis=1))
