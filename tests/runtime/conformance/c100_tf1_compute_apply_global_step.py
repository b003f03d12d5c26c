# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
w = tf.get_variable('w', [2], initializer=tf.constant_initializer([1.0, 2.0]))
gs = tf.train.get_or_create_global_step()
opt = tf.train.GradientDescentOptimizer(0.1)
loss = tf.reduce_sum(w * w)
gv = opt.compute_gradients(loss)
print([(g.name, v.name) for g, v in gv])
step = opt.apply_gradients(gv, global_step=gs)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    for _ in range(3):
        s.run(step)
    print(s.run([w, gs]))
