# ruff: noqa
import numpy as np
import tensorflow as tf

x = tf.constant(np.linspace(-1.0, 1.0, 2 * 3 * 3 * 2).reshape(2, 3, 3, 2), tf.float32)
w = tf.Variable(np.linspace(-0.5, 0.7, 3 * 3 * 4 * 2).reshape(3, 3, 4, 2), dtype=tf.float32)
for strides, padding, out in [(2, 'SAME', [2, 6, 6, 4]), (2, 'VALID', [2, 7, 7, 4]), (1, 'VALID', [2, 5, 5, 4])]:
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.nn.conv2d_transpose(x, w, out, strides=strides, padding=padding)
        loss = tf.reduce_sum(y * tf.cos(y))
    print(y.shape, np.round(y.numpy()[1, :, :, 2], 4).tolist())
    print(np.round(tape.gradient(loss, x).numpy()[0, :, :, 1], 4).tolist())
    print(np.round(tape.gradient(loss, w).numpy()[:, :, 3, 0], 4).tolist())

layer = tf.keras.layers.Conv2DTranspose(3, 3, strides=2, padding='same', activation='relu',
                                        kernel_initializer=tf.keras.initializers.Constant(0.1),
                                        bias_initializer=tf.keras.initializers.Constant(-0.05))
z = layer(x)
print(z.shape, [v.name for v in layer.weights], layer.kernel.shape)
print(np.round(z.numpy()[0, :, :, 0], 4).tolist())
layer2 = tf.keras.layers.Conv2DTranspose(2, (2, 3), strides=(1, 2), padding='valid', use_bias=False)
print(layer2(x).shape)

bn = tf.keras.layers.BatchNormalization(momentum=0.9)
data = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5)
print(np.round(bn(data, training=True).numpy(), 4).tolist())
print([v.name for v in bn.weights], [v.trainable for v in bn.weights])
print(np.round(bn.moving_mean.numpy(), 4).tolist(), np.round(bn.moving_variance.numpy(), 4).tolist())
print(np.round(bn(data, training=False).numpy(), 4).tolist())
print(np.round(bn(data).numpy(), 4).tolist())
model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer='ones'), tf.keras.layers.BatchNormalization()])
print(np.round(model(data, training=True).numpy(), 4).tolist())
print(np.round(model.layers[1].moving_mean.numpy(), 4).tolist())
img = tf.constant(np.arange(2 * 2 * 2 * 3, dtype=np.float32).reshape(2, 2, 2, 3))
bn4 = tf.keras.layers.BatchNormalization(axis=-1)
with tf.GradientTape() as tape:
    out = bn4(img, training=True)
    loss = tf.reduce_sum(out * tf.range(3, dtype=tf.float32))
print(np.round(out.numpy()[0, 0], 4).tolist(), np.round(bn4.moving_variance.numpy(), 4).tolist())
print([np.round(g.numpy(), 4).tolist() for g in tape.gradient(loss, bn4.trainable_weights)])
