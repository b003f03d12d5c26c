# face: tf1
# ruff: noqa
# Averages of graph tensors (the CIFAR-10 tutorial's loss averages): zero-initialized shadows
# named after the tensor's op, zero_debias's biased/local_step variables, averages under a
# variable scope, float64 and float16 variables, and the int variable TF refuses.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [3])
w = tf.Variable([1.0, 2.0, 3.0], name='w')
loss = tf.reduce_sum(w * x, name='loss')
total = tf.identity(2.0 * loss, name='total_loss')
avg = tf.train.ExponentialMovingAverage(0.9, name='avg')
avg_op = avg.apply([loss, total])
print(avg_op.name, avg.average(loss).name, avg.average_name(loss), avg.average(total).name)
print([v.name for v in tf.global_variables()])
print([v.name for v in tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)])
zd = tf.train.ExponentialMovingAverage(0.8, zero_debias=True, name='zd')
zd_op = zd.apply([loss])
print(zd.average(loss).name, [v.name for v in tf.global_variables()])
print([v.name for v in tf.trainable_variables()])
with tf.variable_scope('outer'):
    e = tf.train.ExponentialMovingAverage(0.5)
    e_op = e.apply([w])
print(e.average(w).name, e.average_name(w))
e2 = tf.train.ExponentialMovingAverage(0.5)
e2_op = e2.apply([w])
print(e2.average(w).name, e2_op.name)
print(sorted(e2.variables_to_restore().keys()))
print(e2.average_name(tf.Variable(0.0, name='fresh')))
d64 = tf.Variable(1.0, dtype=tf.float64, name='d64')
h16 = tf.Variable(1.0, dtype=tf.float16, name='h16')
e3 = tf.train.ExponentialMovingAverage(0.9, name='e3')
dh_op = e3.apply([d64, h16])
print(e3.average(d64).dtype, e3.average(h16).dtype, e3.average(d64).name)
iv = tf.Variable(3, name='iv')
try:
    e2.apply([iv])
except TypeError as ex:
    print('TypeError', ex)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print(s.run([avg.average(loss), avg.average(total), zd.average(loss)]))
    for i in range(3):
        s.run([avg_op, zd_op], {x: [1.0, 1.0, 1.0 + i]})
        print(s.run([avg.average(loss), avg.average(total), zd.average(loss)]))
    s.run([tf.assign(d64, 3.0), tf.assign(h16, 2.0)])
    s.run(dh_op)
    print(s.run([e3.average(d64), e3.average(h16)]))
    s.run(tf.assign(w, [3.0, 2.0, 1.0]))
    s.run(e_op)
    print(s.run([e.average(w), e2.average(w)]))

# The common racy form: step and average as siblings of a no_op. Which reads come first is
# up to TF's executor, so only the loss is printed.
tf.reset_default_graph()
v = tf.Variable([1.0, -1.0], name='v')
gs = tf.train.get_or_create_global_step()
loss = tf.reduce_sum(tf.square(v - [0.5, 0.25]))
step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
ema = tf.train.ExponentialMovingAverage(0.99, gs)
with tf.control_dependencies([step, ema.apply()]):
    train_op = tf.no_op(name='train')
print(train_op.name, ema.average(v).name)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print([s.run([train_op, loss])[1] for _ in range(3)], s.run(gs))
