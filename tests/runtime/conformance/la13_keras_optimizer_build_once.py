# ruff: noqa
# A Keras 3 optimizer's build returns early once built, in a tf.function too.
import tensorflow as tf

v = tf.Variable([1.0, 2.0])
opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
opt.build([v])
opt.build([v])
print(len(opt.variables), [x.path for x in opt.variables])
adam = tf.keras.optimizers.Adam(0.1)


@tf.function
def step():
    adam.build([v])
    adam.apply_gradients([(tf.constant([0.5, -0.5]), v)])


step()
step()
print(len(adam.variables), v.numpy())
