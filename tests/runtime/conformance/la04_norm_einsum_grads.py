# ruff: noqa
import numpy as np
import tensorflow as tf
x = tf.Variable([[0.3, -1.2, 0.7, 2.0], [1.5, 0.2, -0.4, -0.9], [0.1, 0.6, -2.2, 0.8]])
y = tf.Variable([[1.0, -0.5], [0.25, 2.0], [-1.5, 0.75], [0.5, 0.5]])
with tf.GradientTape(persistent=True) as tape:
    norms = [tf.norm(x), tf.norm(x, ord=1), tf.norm(x, ord=np.inf), tf.norm(x, axis=0),
             tf.norm(x, ord=1, axis=1, keepdims=True), tf.norm(x, ord=np.inf, axis=-1),
             tf.norm(x, ord='fro', axis=[0, 1]), tf.norm(x, ord=1, axis=(0, 1)),
             tf.norm(x, ord=np.inf, axis=[0, 1], keepdims=True), tf.linalg.norm(x, ord=2, axis=1)]
    eins = [tf.einsum('ij,jk->ik', x, y), tf.einsum('ij->j', x), tf.einsum('ij,ij->', x, x),
            tf.einsum('ij,kl->ikjl', x[:2, :2], y[:2]), tf.einsum('ij,jk', x, y),
            tf.einsum('...j,jk->...k', tf.reshape(x, [3, 1, 4]), y), tf.einsum('ij->ji', y),
            tf.tensordot(x, y, 1), tf.tensordot(x, x, [[0, 1], [0, 1]]), tf.tensordot(x[0], y[0], 0),
            tf.tensordot(x, y, axes=[[1], [0]])]
for t in norms + eins:
    print(t)
for t in norms + eins:
    gx, gy = tape.gradient(t, [x, y])
    print(gx if gx is None else gx.numpy(), gy if gy is None else gy.numpy())
m = tf.Variable([[1., 2., 0.5], [3., 4., -1.], [0.25, 2., 5.]])
with tf.GradientTape(persistent=True) as tape:
    diag = [tf.einsum('ii->', m), tf.einsum('ii->i', m), tf.einsum('ij,jj->i', x[:, :3], m), tf.einsum('ii', m)]
for t in diag:
    print(t, tape.gradient(t, m).numpy())
