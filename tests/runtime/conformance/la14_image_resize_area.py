# ruff: noqa
import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as v1
x = tf.Variable(np.random.RandomState(0).rand(2, 7, 5, 3).astype("float32"))
with tf.GradientTape(persistent=True) as t:
    outs = [tf.image.resize(x, s, method=tf.image.ResizeMethod.AREA) for s in ([3, 2], [11, 4], [7, 5], [2, 9])]
    outs += [v1.image.resize_area(x, [4, 3]), v1.image.resize_images(x[0], [3, 3], method=3),
             v1.image.resize_images(x, [5, 2], method=v1.image.ResizeMethod.AREA)]
    losses = [tf.reduce_sum(o * o) for o in outs]
for o in outs:
    print(o.shape, o.dtype.name, o.numpy().ravel()[:12], float(tf.reduce_sum(o)))
try:  # TF registers no gradient for ResizeArea
    t.gradient(losses[0], x)
except LookupError as e:
    print(type(e).__name__)
print(tf.image.resize(tf.constant(np.arange(12).reshape(3, 4, 1)), [2, 2], method='area').dtype)
for method in (0, 3, 'cubic'):
    try:
        tf.image.resize(x, [2, 2], method=method)
    except ValueError as e:
        print(type(e).__name__, e)
