# face: tf1
# tf1: rnn cells
"""static_rnn, bidirectional_dynamic_rnn (sequence_length reverses each sequence's own
prefix), time-major inputs, an LSTMCell with peepholes and projection, a concatenated LSTM
state, a cell called directly and reused by a second loop, a batch unknown until run time."""
import numpy as np
import tensorflow as tf

x_val = np.cos(np.arange(3 * 4 * 2).reshape(3, 4, 2) * 0.7).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 4, 2])
lengths = tf.placeholder(tf.int32, [None])

with tf.variable_scope("static"):
    cell = tf.nn.rnn_cell.BasicRNNCell(3)
    s_out, s_state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32, sequence_length=lengths)
with tf.variable_scope("bi"):
    fw = tf.nn.rnn_cell.LSTMCell(3, use_peepholes=True, num_proj=2)
    bw = tf.nn.rnn_cell.GRUCell(2)
    (o_fw, o_bw), (st_fw, st_bw) = tf.nn.bidirectional_dynamic_rnn(fw, bw, x, sequence_length=lengths,
                                                                   dtype=tf.float32)
with tf.variable_scope("tm"):
    flat = tf.nn.rnn_cell.BasicLSTMCell(3, state_is_tuple=False)
    tm_out, tm_state = tf.nn.dynamic_rnn(flat, tf.transpose(x, [1, 0, 2]), time_major=True, dtype=tf.float32)
with tf.variable_scope("direct"):
    step = tf.nn.rnn_cell.BasicLSTMCell(2)
    zero = step.zero_state(tf.shape(x)[0], tf.float32)
    h1, st1 = step(x[:, 0], zero)
    again, _ = tf.nn.dynamic_rnn(step, x, initial_state=st1)
print(type(st1).__name__, st1._fields, s_state.shape.as_list(), tm_state.shape.as_list(), len(s_out))
print(type(st_fw).__name__, st_fw.h.shape.as_list(), st_fw.c.shape.as_list(), o_bw.shape.as_list())

everything = [s_out, s_state, o_fw, o_bw, st_fw, st_bw, tm_out, tm_state, h1, again]
loss = tf.add_n([tf.reduce_sum(tf.sin(t)) for t in tf.nest.flatten(everything)])
tvars = tf.trainable_variables()
grads = tf.gradients(loss, tvars + [x])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for k, v in enumerate(tvars):
        print(v.name, v.shape.as_list())
        n = int(np.prod(v.shape.as_list()))
        sess.run(v.assign(np.sin(np.arange(n) * 0.61 + k).reshape(v.shape.as_list()) * 0.6))
    feed = {x: x_val, lengths: [4, 1, 3]}
    for t in sess.run(tf.nest.flatten(everything), feed):
        print(t)
    for v, gv in zip(tvars + [x], sess.run(grads, feed)):
        print("grad", v.name, gv.ravel()[:6])
