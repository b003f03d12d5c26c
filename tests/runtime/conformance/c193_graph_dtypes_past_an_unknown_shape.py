# face: tf1
# Past an op whose shape is not known before it runs (a reshape of a batch of unknown size),
# a comparison still gives bool, a select its branches' dtype, and the select's gradient
# reaches the logits.
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
r = tf.reshape(x, [2, 3])
c = r > 0.0
s = tf.where(c, r, -r)
print(c.dtype, s.dtype, tf.logical_not(c).dtype, tf.is_nan(r).dtype)
loss = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(logits=r, labels=tf.ones([2, 3])))
g = tf.gradients(loss, x)
with tf.Session() as sess:
    print(sess.run(g, {x: [[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]]})[0].round(4))
