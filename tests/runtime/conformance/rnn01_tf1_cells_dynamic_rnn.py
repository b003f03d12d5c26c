# face: tf1
# tf1: rnn cells
"""TF1 cells under dynamic_rnn: variable names, default bias values, outputs, final states and
gradients through time (weights set to fixed values; sequence_length masks the tail)."""
import numpy as np
import tensorflow as tf

x_val = np.sin(np.arange(2 * 4 * 3).reshape(2, 4, 3)).astype(np.float32)
x = tf.placeholder(tf.float32, [2, 4, 3])
lengths = tf.constant([4, 2])
cells = {
    "rnn": tf.nn.rnn_cell.BasicRNNCell(5),
    "gru": tf.nn.rnn_cell.GRUCell(5),
    "basic_lstm": tf.nn.rnn_cell.BasicLSTMCell(5, forget_bias=0.5),
    "lstm": tf.nn.rnn_cell.LSTMCell(5),
}
results = {}
for name, cell in cells.items():
    with tf.variable_scope(name):
        outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
    results[name] = (outputs, state)
stacked = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(4), tf.nn.rnn_cell.GRUCell(3)])
init = stacked.zero_state(2, tf.float32)
m_out, m_state = tf.nn.dynamic_rnn(stacked, x, initial_state=init)
results["multi"] = (m_out, m_state)

loss = sum(tf.reduce_sum(tf.square(o)) for o, _ in results.values())
tvars = tf.trainable_variables()
grads = tf.gradients(loss, tvars + [x])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tvars:
        print(v.name, v.shape.as_list())
    print("gru gate bias", sess.run(tvars[3])[:3], "candidate bias", sess.run(tvars[5])[:3])
    for k, v in enumerate(tvars):
        n = int(np.prod(v.shape.as_list()))
        sess.run(v.assign(np.cos(np.arange(n) * 0.37 + k).reshape(v.shape.as_list()) * 0.5))
    res, g = sess.run([results, grads], {x: x_val})
    for name in results:
        out, st = res[name]
        print(name, "outputs", out.shape)
        print(out)
        print(name, "state", st)
    for v, gv in zip(tvars + [x], g):
        print("grad", v.name, gv.ravel()[:6])
