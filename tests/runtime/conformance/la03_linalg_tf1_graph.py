# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf
np.set_printoptions(precision=5, suppress=True)
a = tf.placeholder(tf.float32, [None, 3])
m = tf.placeholder(tf.float32, [3, 3])
spd = tf.matmul(m, m, transpose_b=True) + 3.0 * tf.eye(3)
outs = [tf.matrix_inverse(spd), tf.matrix_determinant(spd), tf.matrix_solve(spd, tf.transpose(a)),
        tf.cholesky(spd), tf.matrix_diag(a), tf.matrix_diag_part(m), tf.diag(tf.constant([1., 2.])),
        tf.diag_part(m), tf.matrix_transpose(tf.expand_dims(a, 0)), tf.matrix_band_part(m, 1, 0),
        tf.norm(a, axis=1, keep_dims=True), tf.norm(m, ord=1, axis=[0, 1]), tf.linalg.norm(a),
        tf.tensordot(a, m, 1), tf.einsum('ij,jk->ik', a, m), tf.matrix_set_diag(m, [1., 1., 1.]),
        tf.linalg.inv(spd), tf.linalg.adjoint(a)]
for t in outs:
    print(t.shape, t.dtype.name)
loss = tf.add_n([tf.reduce_sum(t * t) for t in outs if t.dtype == tf.float32])
grads = tf.gradients(loss, [a, m])
feed = {a: [[1., 2., 3.], [3., -1., 0.5]], m: [[1., 0.5, 0.], [0.3, 2., 0.1], [0., 0.2, 1.]]}
with tf.Session() as sess:
    for v in sess.run(outs, feed):
        print(v)
    for g in sess.run(grads, feed):
        print(g)
