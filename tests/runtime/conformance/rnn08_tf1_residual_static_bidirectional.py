# face: tf1
# tf1: rnn cells
"""ResidualWrapper in a MultiRNNCell (no scope of its own) and static_bidirectional_rnn with
and without sequence lengths."""
import numpy as np
import tensorflow as tf

x_val = np.cos(np.arange(3 * 4 * 2).reshape(3, 4, 2) * 0.45).astype(np.float32)
x = tf.placeholder(tf.float32, [3, 4, 2])
stack = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(2),
                                     tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.BasicRNNCell(2))])
res_out, res_state = tf.nn.dynamic_rnn(stack, x, dtype=tf.float32)
steps = tf.unstack(x, axis=1)
with tf.variable_scope("plain"):
    out1, fw1, bw1 = tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.BasicRNNCell(2),
                                                    tf.nn.rnn_cell.GRUCell(3), steps, dtype=tf.float32)
with tf.variable_scope("lengths"):
    out2, fw2, bw2 = tf.nn.static_bidirectional_rnn(tf.nn.rnn_cell.LSTMCell(2), tf.nn.rnn_cell.BasicRNNCell(1),
                                                    steps, dtype=tf.float32, sequence_length=[4, 2, 3])
fetch = [res_out, res_state, out1, fw1, bw1, out2, fw2, bw2]
loss = tf.add_n([tf.reduce_sum(tf.sin(t)) for t in tf.nest.flatten(fetch)])
tvars = tf.trainable_variables()
grads = tf.gradients(loss, tvars + [x])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for k, v in enumerate(tvars):
        print(v.name, v.shape.as_list())
        n = int(np.prod(v.shape.as_list()))
        sess.run(v.assign(np.sin(np.arange(n) * 0.53 + k).reshape(v.shape.as_list()) * 0.7))
    for t in sess.run(tf.nest.flatten(fetch), {x: x_val}):
        print(t)
    for v, g in zip(tvars + [x], sess.run(grads, {x: x_val})):
        print("grad", v.name, g.ravel()[:5])
