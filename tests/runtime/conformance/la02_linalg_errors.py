# ruff: noqa
import numpy as np
import tensorflow as tf


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        msg = str(e).split('}} ')[-1].split(' name:')[0].splitlines()[0]
        print(label, type(e).__name__, '|', msg)


show('inv singular', lambda: tf.linalg.inv(tf.ones([2, 2])))
show('inv nonsquare', lambda: tf.linalg.inv(tf.ones([2, 3])))
show('inv int', lambda: tf.linalg.inv(tf.constant([[1, 2], [3, 4]])))
show('det nonsquare', lambda: tf.linalg.det(tf.ones([2, 3])))
show('det int', lambda: tf.linalg.det(tf.constant([[1, 2], [3, 4]])))
show('solve mismatch', lambda: tf.linalg.solve(tf.eye(2), tf.ones([3, 1])))
show('solve singular', lambda: tf.linalg.solve(tf.ones([2, 2]), tf.ones([2, 1])))
show('solve dtypes', lambda: tf.linalg.solve(tf.eye(2), tf.ones([2, 1], tf.float64)))
show('cholesky int', lambda: tf.linalg.cholesky(tf.constant([[1, 0], [0, 1]])))
show('transpose rank1', lambda: tf.linalg.matrix_transpose(tf.ones([3])))
show('norm ord3', lambda: tf.norm(tf.ones([2, 2]), ord=3, axis=[0, 1]))
show('norm ord0', lambda: tf.norm(tf.ones([2, 2]), ord=0))
show('norm fro vector', lambda: tf.norm(tf.ones([2, 2]), ord='fro'))
show('norm int', lambda: tf.norm(tf.constant([3, 4])))
show('norm int ord1', lambda: tf.norm(tf.constant([3, -4]), ord=1))
show('tensordot mismatch', lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([2, 4]), 1))
show('matmul mismatch', lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 4])))
show('einsum mismatch', lambda: tf.einsum('ij,jk->ik', tf.ones([2, 3]), tf.ones([2, 4])))
show('einsum nargs', lambda: tf.einsum('ij,jk->ik', tf.ones([2, 3])))
