# face: tf1
# ruff: noqa
import tensorflow as tf

step = tf.Variable(0, trainable=False, name='global_step')
inc = tf.assign_add(step, 7)
rates = [
    tf.train.exponential_decay(0.1, step, 10, 0.9),
    tf.train.exponential_decay(0.1, step, 10, 0.9, staircase=True),
    tf.train.inverse_time_decay(0.5, step, 5, 0.3),
    tf.train.inverse_time_decay(0.5, step, 5, 0.3, staircase=True),
    tf.train.natural_exp_decay(0.2, step, 4, 0.1, staircase=True),
    tf.train.natural_exp_decay(0.2, step, 4, 0.1),
    tf.train.polynomial_decay(0.1, step, 30, 0.01, power=2.0),
    tf.train.polynomial_decay(0.1, step, 30, 0.01, cycle=True),
    tf.train.piecewise_constant(step, [10, 20], [1.0, 0.5, 0.1]),
]
print([r.dtype for r in rates])
w = tf.Variable(5.0)
train = tf.train.GradientDescentOptimizer(rates[1]).minimize(tf.square(w), global_step=step)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(6):
        print(sess.run(step), sess.run(rates))
        sess.run(inc)
    for _ in range(3):
        sess.run(train)
    print(sess.run([step, w]))
