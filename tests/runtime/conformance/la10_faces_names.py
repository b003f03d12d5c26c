# ruff: noqa
import tensorflow as tf
import tensorflow.compat.v1 as v1
for name in ['matrix_inverse', 'matrix_determinant', 'diag', 'matrix_diag', 'cholesky', 'segment_sum',
             'unsorted_segment_sum', 'matrix_band_part', 'matrix_transpose']:
    try:
        getattr(tf, name)
        print(name, 'present')
    except AttributeError as e:
        print(name, 'AttributeError', e)
print(tf.linalg.diag([1, 2]), v1.diag([1, 2]))
print(v1.diag([[1, 2], [3, 4]]).shape, tf.linalg.diag([[1, 2], [3, 4]]).shape)
print(v1.diag_part(tf.eye(2)), v1.matrix_diag_part(tf.ones([2, 2, 3])))
print(v1.matrix_inverse([[2., 0.], [0., 4.]]), v1.matrix_determinant([[2., 0.], [0., 4.]]))
print(v1.nn.in_top_k([[0.1, 0.9], [0.8, 0.2]], [1, 1], 1), tf.nn.in_top_k([1, 1], [[0.1, 0.9], [0.8, 0.2]], 1))
print(v1.norm([[3., 4.]], axis=1, keep_dims=True), v1.segment_sum([1, 2, 3], [0, 1, 1]))
print(v1.boolean_mask([1, 2, 3], [True, False, True], 'bm', 0), tf.math.segment_sum([1, 2, 3], [0, 1, 1]))
