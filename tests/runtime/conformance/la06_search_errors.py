# ruff: noqa
import tensorflow as tf


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        msg = str(e).split('}} ')[-1].split(' name:')[0].splitlines()[0]
        print(label, type(e).__name__, '|', msg)


show('top_k big k', lambda: tf.math.top_k([1., 3.], k=3))
show('top_k negative k', lambda: tf.math.top_k([1., 3.], k=-1))
show('sort direction', lambda: tf.sort([3., 1.], direction='UP'))
show('unique 2d', lambda: tf.unique([[4, 1]]))
show('segment unsorted ids', lambda: tf.math.segment_sum([1., 2., 3.], [0, 2, 1]))
show('unsorted out of range', lambda: tf.math.unsorted_segment_sum([1., 2.], [0, 5], 3))
show('in_top_k float targets', lambda: tf.math.in_top_k([1., 0.], [[0.1, 0.5], [0.3, 0.3]], 1))
show('boolean_mask scalar', lambda: tf.boolean_mask([1, 2], True))
show('boolean_mask shape', lambda: tf.boolean_mask([1, 2, 3], [True, False]))
show('gather_nd out of range', lambda: tf.gather_nd([[1, 2], [3, 4]], [[5, 0]]))
show('scatter_nd out of range', lambda: tf.scatter_nd([[7]], [1.], [5]))
show('scatter_nd updates', lambda: tf.scatter_nd([[1], [0]], tf.ones([3, 4]), [3, 4]))
show('scatter_nd slice', lambda: tf.scatter_nd([[1], [0], [1]], tf.ones([3, 4]), [3, 3, 4]))
show('sequence_mask maxlen', lambda: tf.sequence_mask([1, 2], [3, 4]))
