# face: tf1
# ruff: noqa
import tensorflow as tf
labels = tf.placeholder(tf.int64, [None])
logits = tf.placeholder(tf.float32, [None, 3])
acc, update = tf.metrics.accuracy(labels=labels, predictions=tf.argmax(logits, 1))
m, mu = tf.metrics.mean([1., 2., 3.], weights=[1., 0., 1.], name='wmean')
acc2, up2 = tf.metrics.accuracy(tf.constant([[1], [2]]), tf.constant([1, 1]))
print(acc, update)
print([v.name for v in tf.local_variables()], tf.global_variables(), tf.trainable_variables())
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    print(sess.run(acc))
    print(sess.run(update, {labels: [0, 1, 2], logits: [[1, 0, 0], [1, 0, 0], [0, 0, 1]]}))
    print(sess.run(update, {labels: [0], logits: [[0, 1, 0]]}))
    print(sess.run([acc, mu]), sess.run(m), sess.run(up2), sess.run(acc2))
