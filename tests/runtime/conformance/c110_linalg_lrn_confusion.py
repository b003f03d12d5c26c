# ruff: noqa
import numpy as np
import tensorflow as tf

m = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
print(tf.linalg.trace(m).numpy(), tf.linalg.diag_part(m).numpy().tolist())
print(tf.linalg.trace(tf.ones([3, 3], tf.int32)).numpy())
x = tf.constant(np.linspace(-2.0, 3.0, 2 * 2 * 2 * 7).reshape(2, 2, 2, 7), tf.float32)
for kw in [{}, dict(depth_radius=2, bias=2.0, alpha=0.1, beta=0.75), dict(depth_radius=0)]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.lrn(x, **kw)
        loss = tf.reduce_sum(y * tf.range(7, dtype=tf.float32))
    print(np.round(y.numpy()[0, 0], 5).tolist())
    print(np.round(tape.gradient(loss, x).numpy()[1, 1], 5).tolist())
mat = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    t = tf.linalg.trace(mat * mat)
print(t.numpy(), tape.gradient(t, mat).numpy().tolist())
labels = [0, 1, 2, 2, 1]
preds = [0, 2, 2, 1, 1]
print(tf.math.confusion_matrix(labels, preds).numpy().tolist())
print(tf.math.confusion_matrix(labels, preds, num_classes=4, weights=[1.0, 2.0, 0.5, 1.0, 1.0], dtype=tf.float32).numpy().tolist())
print(tf.math.confusion_matrix(labels, preds).dtype)


@tf.function
def cm(a, b):
    return tf.math.confusion_matrix(a, b, num_classes=3)


print(cm(tf.constant(labels), tf.constant(preds)).numpy().tolist())
