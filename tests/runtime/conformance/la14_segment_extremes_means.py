# ruff: noqa
import tensorflow as tf
d = tf.Variable([[1., 5.], [3., 2.], [3., 7.], [0., -1.]])
with tf.GradientTape(persistent=True) as t:
    outs = [tf.math.segment_mean(d, [0, 0, 2, 2]), tf.math.segment_max(d, [0, 0, 2, 2]),
            tf.math.unsorted_segment_mean(d, [1, 1, -1, 3], 4), tf.math.unsorted_segment_max(d, [1, 1, 0, 3], 5),
            tf.math.segment_min(d, [0, 0, 1, 1]), tf.math.unsorted_segment_min(d, [0, 0, 1, 1], 3),
            tf.math.segment_max(d, [0, 1, 1, 1])]
    losses = [tf.reduce_sum(o * [[1., 2.]]) for o in outs]
for o, l in zip(outs, losses):
    print(o, t.gradient(l, d))
print(tf.math.segment_max([1, 2], [0, 2]), tf.math.unsorted_segment_max([1, 2], [0, 2], 4))
print(tf.math.unsorted_segment_min([1, 2], [0, 2], 4), tf.math.segment_mean([1, 2, 4], [0, 0, 1]))
print(tf.compat.v1.segment_max([1., 2.], [0, 0]), tf.compat.v1.unsorted_segment_mean([1., 2.], [1, 1], 2))
for f in [lambda: tf.math.segment_max([1., 2., 3.], [0, 2, 1]),
          lambda: tf.math.unsorted_segment_min([1., 2.], [0, 4], 3)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).split('}} ')[-1].split(' name:')[0])
