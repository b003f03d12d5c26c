"""A tf.function creating, on its first call, a variable from a Keras weight built in the same
call, before training it: the new variable starts at the weight's initial value."""
import tensorflow as tf

layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
optimizer = tf.keras.optimizers.SGD(0.1)
shadows = []


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x) ** 2)
    if not shadows:
        shadows.extend(tf.Variable(v, trainable=False) for v in layer.trainable_variables)
    grads = tape.gradient(loss, layer.trainable_variables)
    optimizer.apply_gradients(zip(grads, layer.trainable_variables))
    for shadow, v in zip(shadows, layer.trainable_variables):
        shadow.assign_sub(0.5 * (shadow - v))
    return loss


for i in range(3):
    print(step(tf.ones([2, 3])).numpy())
    print(layer.kernel.numpy()[0], shadows[0].numpy()[0], shadows[1].numpy())
