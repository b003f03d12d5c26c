# ruff: noqa
import tensorflow as tf

class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(2, 3, padding='same', activation='relu', kernel_initializer='ones')
        self.pool = tf.keras.layers.MaxPooling2D()
        self.flat = tf.keras.layers.Flatten()
        self.out = tf.keras.layers.Dense(1, kernel_initializer='ones')

    def call(self, x):
        return self.out(self.flat(self.pool(self.conv(x))))

net = Net()
x = tf.reshape(tf.range(32, dtype=tf.float32), [2, 4, 4, 1]) / 10.0
print(net(x))
print([(v.path, tuple(v.shape)) for v in net.variables])
print(tf.keras.layers.Dense(2, kernel_initializer='ones')(tf.ones([2, 3, 4])).shape)
