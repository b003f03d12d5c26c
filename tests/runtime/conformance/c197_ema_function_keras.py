# face: tf2
# ruff: noqa
# tf.train.ExponentialMovingAverage inside tf.function, the TF2 form of a TF1 training step:
# the first call traces twice and makes the shadows (at the values before the step), later
# calls update them after the optimizer step, in program order. Keras 3 variables are not
# tf.Variables: TF 2.21's apply() and average() reject them; their .value is a tf.Variable.
import numpy as np
import tensorflow as tf

X = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]], np.float32)
Y = np.array([[1.0], [2.0], [0.0]], np.float32)

dense = tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant([[0.1], [-0.2]]),
                              bias_initializer=tf.keras.initializers.Constant(0.5), name='dense')
dense(tf.zeros([1, 2]))
for what in ['apply', 'average', 'average_name']:
    try:
        getattr(tf.train.ExponentialMovingAverage(0.9), what)(dense.trainable_variables if what == 'apply' else dense.kernel)
    except AttributeError as ex:
        print(what, 'AttributeError', ex)


class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.s = self.add_weight(name='s', shape=(2,), initializer='ones')

    def call(self, x):
        return x * self.s


scale = Scale(name='scale')
scale(tf.zeros([1, 2]))
try:
    tf.train.ExponentialMovingAverage(0.9).apply([scale.s])
except AttributeError as ex:
    print('add_weight', 'AttributeError', ex)


@tf.function
def keras_in_function():
    tf.train.ExponentialMovingAverage(0.9).apply(dense.trainable_variables)


try:
    keras_in_function()
except AttributeError as ex:
    print('in tf.function', 'AttributeError')

global_step = tf.Variable(0, trainable=False, name='global_step')
optimizer = tf.keras.optimizers.SGD(0.05)
ema = tf.train.ExponentialMovingAverage(0.99, num_updates=global_step)
weights = [v.value for v in dense.trainable_variables]
print([type(v).__name__ for v in weights], [v.name for v in weights])
traces = []


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def train_step(x, y_):
    traces.append(1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(dense(x) - y_))
    grads = tape.gradient(loss, dense.trainable_variables)
    optimizer.apply_gradients(zip(grads, dense.trainable_variables))
    global_step.assign_add(1)
    ema.apply(weights)
    return loss


for i in range(4):
    loss = train_step(X, Y)
    print(i, len(traces), loss.numpy(), global_step.numpy(), dense.kernel.numpy().ravel(),
          ema.average(weights[0]).numpy().ravel(), ema.average(weights[1]).numpy())
print([ema.average(v).name for v in weights], [ema.average_name(v) for v in weights])
print(ema.variables_to_restore(), sorted(ema.variables_to_restore(weights).keys()))
print(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.MOVING_AVERAGE_VARIABLES))

# plain tf.Variables: the first apply inside the function, after an update in the same call
w = tf.Variable([1.0, 2.0], name='w')
b = tf.Variable(0.5, name='b')
ema2 = tf.train.ExponentialMovingAverage(0.5)


@tf.function
def step():
    w.assign(w * 2.0)
    b.assign_add(1.0)
    ema2.apply([w, b])


for i in range(3):
    step()
    print(i, w.numpy(), ema2.average(w).numpy(), ema2.average(b).numpy())
print(ema2.average(w).name, ema2.average(b).name)

# a shadow made on a later trace is a variable created on a non-first trace
ema3 = tf.train.ExponentialMovingAverage(0.9)
p, q = tf.Variable(1.0, name='p'), tf.Variable(2.0, name='q')


@tf.function
def pick(use_q):
    ema3.apply([q] if use_q else [p])


pick(False)
print(ema3.average(p).numpy())
try:
    pick(True)
except ValueError as ex:
    print('ValueError', 'only supports singleton tf.Variables created on the first call' in str(ex))
