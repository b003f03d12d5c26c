import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
X_raw = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y_raw = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
X_ = (X_raw - X_raw.min()) / (X_raw.max() - X_raw.min())
y_ = (y_raw - y_raw.min()) / (y_raw.max() - y_raw.min())
X = tf.placeholder(dtype=tf.float32, shape=[5])
y = tf.placeholder(dtype=tf.float32, shape=[5])
a = tf.get_variable("a", dtype=tf.float32, shape=[], initializer=tf.zeros_initializer)
b = tf.get_variable("b", dtype=tf.float32, shape=[], initializer=tf.zeros_initializer)
y_pred = a * X + b
loss = tf.constant(0.5) * tf.reduce_sum(tf.square(y_pred - y))
train_op = tf.train.GradientDescentOptimizer(learning_rate=1e-3).minimize(loss)
with tf.Session() as sess:
    tf.global_variables_initializer().run()
    for e in range(300):
        sess.run(train_op, feed_dict={X: X_, y: y_})
    print(sess.run([a, b]))
