# ruff: noqa
# Keras 3's call context: a model called with training=True passes it to the layers its
# sublayers call without one; a layer's own default applies when nothing outer sets it; only
# tensors go positionally, and arrays are converted (floats to the layer's dtype).
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, "|", str(e).splitlines()[0][:200])


class Block(L.Layer):
    def __init__(self):
        super().__init__()
        self.bn = L.BatchNormalization()

    def call(self, x):
        return self.bn(x)


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def call(self, x, training=None):
        return self.block(x)


class Doubling(L.Layer):
    def call(self, x, training=True):
        return x * (2.0 if training else 1.0)


class Outer(L.Layer):
    def __init__(self):
        super().__init__()
        self.inner = Doubling()

    def call(self, x, training=None):
        return self.inner(x)


x = np.arange(8, dtype=np.float32).reshape(4, 2)
net = Net()
net(x)
print(net.block.bn.moving_mean.numpy())
net(x, training=True)
print(net.block.bn.moving_mean.numpy())
inp = tf.keras.Input((2,))
functional = tf.keras.Model(inp, Block()(inp))
functional(x, training=True)
print(functional.layers[1].bn.moving_mean.numpy())
show("positional training to a model", lambda: functional(x, True).shape)
print(Doubling()(x).numpy()[1], Doubling()(x, training=False).numpy()[1])
print(Outer()(x).numpy()[1], Outer()(x, training=False).numpy()[1])
show("list input", lambda: L.Dense(2)([[1.0, 2.0]]).shape)
show("float input", lambda: L.Activation("relu")(3.0))
show("float64 array", lambda: L.Dense(2)(np.ones((1, 2))).dtype)
show("int array", lambda: L.Activation("relu")(np.ones((1, 2), np.int32)).dtype)
show("positional training", lambda: L.Dropout(0.5)(x, True).shape)
show("positional None", lambda: L.Dropout(0.5)(x, None).shape)
show("list of arrays", lambda: L.Add()([np.ones((1, 2)), np.ones((1, 2))]).dtype)
v = tf.Variable(np.ones((2, 2), np.float32))
dense = L.Dense(2, kernel_initializer="ones")
with tf.GradientTape() as tape:
    total = tf.reduce_sum(dense(v))
print("variable input", tape.gradient(total, v).numpy()[0], dense(tf.Variable(np.ones((1, 2)))).dtype)
