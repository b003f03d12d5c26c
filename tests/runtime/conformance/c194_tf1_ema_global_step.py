# face: tf1
# ruff: noqa
# The TF1 training-script pattern: the average's update runs after the optimizer step
# (control dependency), with num_updates=global_step; then an eval graph restores the
# averages into the model through variables_to_restore().
import os
import tempfile

import numpy as np
import tensorflow as tf

X = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]], np.float32)
Y = np.array([[1.0], [2.0], [0.0]], np.float32)


def model(x):
    with tf.variable_scope('layer1'):
        w = tf.get_variable('weights', [2, 1], initializer=tf.constant_initializer([[0.1], [-0.2]]))
        b = tf.get_variable('biases', [1], initializer=tf.constant_initializer(0.5))
    return tf.matmul(x, w) + b, w, b


x = tf.placeholder(tf.float32, [None, 2])
y_ = tf.placeholder(tf.float32, [None, 1])
y, w, b = model(x)
loss = tf.reduce_mean(tf.square(y - y_))
global_step = tf.Variable(0, trainable=False)
train_step = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=global_step)
ema = tf.train.ExponentialMovingAverage(0.99, global_step)
with tf.control_dependencies([train_step]):
    ema_op = ema.apply(tf.trainable_variables())
with tf.control_dependencies([ema_op]):
    train_op = tf.no_op(name='train')
plain_op = ema.apply([w, b])  # a second update op for the same shadows
print(ema.name, ema_op.name, ema_op.type, plain_op.name)
print([v.name for v in tf.global_variables()])
print([v.name for v in tf.trainable_variables()])
print([v.name for v in tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)])
print([v.name for v in tf.moving_average_variables()])
print(ema.average(w).name, ema.average(b).name, ema.average(global_step))
print(ema.average_name(w), ema.average_name(b), ema.average_name(global_step))
print(ema.average(w).trainable if hasattr(ema.average(w), 'trainable') else None)
restore = ema.variables_to_restore()
print(sorted(restore.keys()))
print(sorted((k, v.name) for k, v in restore.items()))
print(sorted(ema.variables_to_restore([w]).keys()))
d = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([w, ema.average(w), b, ema.average(b)]))
    for i in range(4):
        _, l = sess.run([train_op, loss], feed_dict={x: X, y_: Y})
        print(i, l, sess.run(global_step), sess.run([w, ema.average(w), ema.average(b)]))
    # the same again as two runs: step, then average
    for i in range(2):
        sess.run(train_step, feed_dict={x: X, y_: Y})
        sess.run(plain_op)
        print('split', sess.run(global_step), sess.run([ema.average(w), ema.average(b)]))
    shadow = sess.run([ema.average(w), ema.average(b)])
    path = tf.train.Saver().save(sess, os.path.join(d, 'model.ckpt'))

tf.reset_default_graph()
x = tf.placeholder(tf.float32, [None, 2])
y, w, b = model(x)
ema = tf.train.ExponentialMovingAverage(0.99)
to_restore = ema.variables_to_restore()
print(sorted(to_restore.keys()))
saver = tf.train.Saver(to_restore)
with tf.Session() as sess:
    saver.restore(sess, path)
    got = sess.run([w, b])
    print(got)
    print([bool(np.allclose(g, s)) for g, s in zip(got, shadow)])
    print(sess.run(y, feed_dict={x: X}))
