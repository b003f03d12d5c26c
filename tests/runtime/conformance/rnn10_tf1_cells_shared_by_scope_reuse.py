# face: tf1
# tf1: rnn cells
"""A second model built under the same variable_scope with reuse=True gets the same cell names
(TF restarts default names below a scope it leaves) and so shares the first model's weights;
for the same reason a second new cell in a re-entered scope collides with the first."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [2, 3, 4])
with tf.variable_scope("model"):
    train_out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
with tf.variable_scope("model", reuse=True):
    test_out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
with tf.variable_scope("other"):
    a = tf.nn.rnn_cell.GRUCell(2)
    b = tf.nn.rnn_cell.GRUCell(2)
    a_out, _ = tf.nn.dynamic_rnn(a, x, dtype=tf.float32, scope="shared")
    try:
        tf.nn.dynamic_rnn(b, x, dtype=tf.float32, scope="shared")
    except ValueError as e:
        print(type(e).__name__, "already exists" in str(e))
print([v.name for v in tf.global_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.cos(np.arange(24).reshape(2, 3, 4))}
    first, second = sess.run([train_out, test_out], feed)
    print(np.array_equal(first, second), first.shape)
