# face: tf1
# ruff: noqa
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
w = tf.Variable([1.0, 2.0], name='w')
b = tf.Variable(3.0, name='b')
step = tf.Variable(0, name='step', trainable=False)
inc = tf.assign_add(step, 10)
saver = tf.train.Saver(max_to_keep=2)
named = tf.train.Saver({'weight': w})
print(tf.train.latest_checkpoint(d), tf.train.get_checkpoint_state(d))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(inc)
        p = saver.save(sess, os.path.join(d, 'model.ckpt'), global_step=step)
        print(os.path.relpath(p, d))
    print(sorted(os.listdir(d)))
    state = tf.train.get_checkpoint_state(d)
    print(os.path.relpath(state.model_checkpoint_path, d), [os.path.relpath(x, d) for x in state.all_model_checkpoint_paths])
    print(os.path.relpath(tf.train.latest_checkpoint(d), d))
    print([os.path.relpath(x, d) for x in saver.last_checkpoints])
    q = named.save(sess, os.path.join(d, 'named'), write_meta_graph=False)
    print(os.path.relpath(q, d), os.path.exists(q + '.meta'))
    sess.run([tf.assign(w, [0.0, 0.0]), tf.assign(b, -1.0), tf.assign(step, 0)])
    print(os.path.relpath(tf.train.latest_checkpoint(d), d))
    try:
        saver.restore(sess, tf.train.latest_checkpoint(d))
    except tf.errors.NotFoundError as e:
        print('NotFoundError', str(e).splitlines()[0])
    saver.restore(sess, p)
    print(sess.run([w, b, step]))
    sess.run(tf.assign(w, [5.0, 5.0]))
    named.restore(sess, q)
    print(sess.run(w))
    try:
        saver.restore(sess, os.path.join(d, 'nothing'))
    except ValueError as e:
        print('ValueError', str(e).startswith('The passed save_path is not a valid checkpoint'))
try:
    tf.train.Saver([])
except ValueError as e:
    print('ValueError', e)
