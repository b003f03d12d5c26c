# ruff: noqa
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
x = tf.get_variable('x', [], initializer=tf.constant_initializer(1.0))
opt = tf.train.MomentumOptimizer(0.1, 0.9)
step = opt.minimize(x * x)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    for _ in range(3):
        s.run(step)
        print(s.run(x))
    print(opt.get_slot_names())
