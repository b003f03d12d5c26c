# face: tf2
# ruff: noqa
# tf.train.ExponentialMovingAverage eagerly: the shadow starts at the variable's value at the
# first apply, each apply updates at once and returns None; names, num_updates, dtypes, and
# what variables_to_restore() gives without graph collections.
import tensorflow as tf

w = tf.Variable([1.0, 2.0], name='w')
ema = tf.train.ExponentialMovingAverage(0.9)
print(ema.name, ema.apply([w]))
a = ema.average(w)
print(type(a).__name__, a.name, a.trainable, a.numpy())
print(ema.average_name(w))
w.assign([3.0, 4.0])
ema.apply([w])
print(a.numpy(), ema.average(w) is a)
ema.apply([w, w])
print(a.numpy())
print(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.MOVING_AVERAGE_VARIABLES) == [w])
print(ema.variables_to_restore())
u = tf.Variable(1.0, name='u')
print(sorted(ema.variables_to_restore([w, u]).keys()))
print(ema.average(u), ema.average_name(u), ema.apply())
# a second average of the same variable, and unnamed variables
ema2 = tf.train.ExponentialMovingAverage(0.5, name='ExponentialMovingAverage')
ema2.apply([w])
print(ema2.average(w).name, ema2.average_name(w))
v1, v2 = tf.Variable(1.0), tf.Variable(2.0)
ema.apply([v1, v2])
print(ema.average(v1).name, ema.average(v2).name)
# num_updates: a Python number, a variable of any number type, read at each apply
for n in [3, tf.Variable(2.0, dtype=tf.float64), tf.Variable(0, dtype=tf.int64)]:
    e = tf.train.ExponentialMovingAverage(0.99, num_updates=n, name='n')
    p = tf.Variable(1.0, name='p')
    e.apply([p])
    p.assign(5.0)
    e.apply([p])
    print(e.average(p).name, e.average(p).numpy())
steps = tf.Variable(0)
e = tf.train.ExponentialMovingAverage(0.99, num_updates=steps)
q = tf.Variable(0.0, name='q')
for i in range(4):
    q.assign_add(1.0)
    steps.assign_add(1)
    e.apply([q])
    print(i, e.average(q).numpy())
# decay given as a variable; float64 and float16 variables
dv = tf.Variable(0.25)
e = tf.train.ExponentialMovingAverage(dv)
d64 = tf.Variable(1.0, dtype=tf.float64, name='d64')
h16 = tf.Variable(1.0, dtype=tf.float16, name='h16')
e.apply([d64, h16])
d64.assign(2.0)
h16.assign(2.0)
dv.assign(0.9)
e.apply([d64, h16])
print(repr(e.average(d64)))
print(repr(e.average(h16)))
# zero_debias averages only graph tensors: a variable's average ignores it
z = tf.train.ExponentialMovingAverage(0.9, zero_debias=True)
r = tf.Variable(5.0, name='r')
z.apply([r])
r.assign(7.0)
z.apply([r])
print(z.average(r).numpy())
for bad in [tf.Variable(1, name='count'), tf.constant(1.0)]:
    try:
        ema.apply([bad])
    except TypeError as ex:
        print('TypeError', ex)
