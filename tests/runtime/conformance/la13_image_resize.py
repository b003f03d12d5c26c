# ruff: noqa
import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as v1
x = tf.Variable(np.arange(2 * 3 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 2) / 7.0)
xi = tf.constant(np.arange(12).reshape(3, 4, 1))
with tf.GradientTape(persistent=True) as t:
    outs = [tf.image.resize(x, [5, 7]), tf.image.resize(x, [2, 3]), tf.image.resize(x, (6, 8), method='nearest'),
            tf.image.resize(x, [2, 2], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR),
            v1.image.resize_images(x, [5, 7]), v1.image.resize_bilinear(x, [4, 6], align_corners=True),
            v1.image.resize_nearest_neighbor(x, [5, 3]), v1.image.resize_nearest_neighbor(x, [5, 7], align_corners=True),
            v1.image.resize_bilinear(x, [5, 7], half_pixel_centers=True), v1.image.resize(x, [3, 4]),
            v1.image.resize_images(x, [6, 5], method=v1.image.ResizeMethod.NEAREST_NEIGHBOR)]
    losses = [tf.reduce_sum(o * o) for o in outs]
for o, l in zip(outs, losses):
    print(o.shape, o.dtype.name, o.numpy().ravel()[:12], float(tf.reduce_sum(o)))
    print(t.gradient(l, x).numpy().ravel()[:10])
print(tf.image.resize(xi, [5, 5]).dtype, tf.image.resize(xi, [5, 5], 'nearest'))
print(tf.image.resize(tf.cast(xi, tf.float64), [2, 2]).dtype, tf.image.resize(xi, [3, 4])[..., 0])
for f in [lambda: v1.image.resize_bilinear(x, [3, 3], align_corners=True, half_pixel_centers=True),
          lambda: tf.image.resize(tf.ones([2, 2]), [3, 3])]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).split('}} ')[-1])
