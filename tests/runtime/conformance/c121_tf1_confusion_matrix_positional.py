# face: tf1
"""TF1's confusion_matrix takes dtype and name before weights, also when passed positionally."""
import tensorflow as tf

labels = tf.constant([0, 1, 2, 1])
preds = tf.constant([0, 2, 2, 1])
by_position = tf.confusion_matrix(labels, preds, 3, tf.float32)
by_name = tf.confusion_matrix(labels, preds, num_classes=3, weights=[1, 2, 1, 1])
under_math = tf.math.confusion_matrix(labels, preds, 3, tf.float64)
with tf.Session() as sess:
    a, b, c = sess.run([by_position, by_name, under_math])
    print(a.tolist(), a.dtype)
    print(b.tolist(), b.dtype)
    print(c.tolist(), c.dtype)
