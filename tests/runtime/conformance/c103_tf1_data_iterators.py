# face: tf1
# ruff: noqa
import numpy as np
import tensorflow as tf

xs = np.arange(10, dtype=np.float32).reshape(5, 2)
ys = np.array([0, 1, 0, 1, 1], dtype=np.int64)
ds = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(2)
print(ds.output_types, ds.output_shapes)
it = ds.make_one_shot_iterator()
bx, by = it.get_next()
print(bx.shape, by.shape, bx.dtype, by.dtype)
with tf.Session() as sess:
    try:
        while True:
            a, b = sess.run([bx, by])
            print(a.tolist(), b.tolist())
    except tf.errors.OutOfRangeError:
        print('end')

x_pl = tf.placeholder(tf.float32, [None, 2])
n_pl = tf.placeholder(tf.int64, [])
ds2 = tf.data.Dataset.from_tensor_slices({'x': x_pl}).map(lambda d: d['x'] * 2.0).batch(n_pl, drop_remainder=True)
it2 = tf.data.make_initializable_iterator(ds2)
nxt = it2.get_next()
print(nxt.shape)
total = tf.reduce_sum(nxt)
with tf.Session() as sess:
    try:
        sess.run(nxt)
    except tf.errors.FailedPreconditionError:
        print('not initialized')
    sess.run(it2.initializer, {x_pl: xs, n_pl: 2})
    print(sess.run(total), sess.run(total))
    try:
        sess.run(total)
    except tf.errors.OutOfRangeError:
        print('end after', 2)
    sess.run(it2.initializer, {x_pl: xs[:3], n_pl: 3})
    print(sess.run(nxt).tolist())

r = tf.data.Dataset.range(3, 20, 4).skip(1).take(3).repeat(2)
rn = r.make_one_shot_iterator().get_next()
with tf.Session() as sess:
    print([sess.run(rn) for _ in range(6)], rn.dtype)
