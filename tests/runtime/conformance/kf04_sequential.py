# ruff: noqa
# Sequential as Keras 3 builds it: unbuilt until its input shape is known (an Input added, a
# first layer given input_shape, or the first call), weights under the model's name scope.
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.RandomState(3)
np.set_printoptions(precision=7, suppress=True)
lazy = tf.keras.Sequential([L.Dense(4, activation="relu"), L.Dropout(0.25), L.Dense(2)])
print(lazy.name, lazy.built, [l.name for l in lazy.layers], lazy.weights)
x = rng.randn(5, 3).astype(np.float32)
y = lazy(x)
print(lazy.built, y.shape, [(v.path, tuple(v.shape)) for v in lazy.weights])
for v in lazy.weights:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
print(lazy(x).numpy())
print(lazy(x, training=False).numpy())

eager = tf.keras.Sequential(name="stack")
eager.add(tf.keras.Input((3,)))
print(eager.built, eager.layers)
eager.add(L.Dense(2, name="first"))
print(eager.built, [v.path for v in eager.weights], eager.input_shape, eager.output_shape)
eager.add(L.Dense(1))
print([l.name for l in eager.layers], [v.path for v in eager.weights])
popped = eager.pop()
print(popped.name, [l.name for l in eager.layers], eager.output_shape)

legacy = tf.keras.Sequential([L.Dense(2, input_shape=(3,)), L.BatchNormalization(), L.Dense(1)])
print(legacy.built, [(v.path, v.trainable) for v in legacy.weights])
for v in legacy.trainable_variables:
    v.assign(rng.uniform(-0.5, 0.5, v.shape).astype(np.float32))
print(legacy(x, training=True).numpy())
print(legacy.layers[1].moving_mean.numpy())

inner = tf.keras.Input((3,))
nested = tf.keras.Model(inner, legacy(inner))
print([l.name for l in nested.layers], len(nested.weights))
print(nested(x).numpy())
