# face: tf2
"""TF2 face: embedding_lookup's gradient (sparse in TF, dense here: same values, repeated ids
summed), nce_loss/sampled_softmax_loss with TF2 signatures, eagerly and in a tf.function."""
import numpy as np
import tensorflow as tf

table = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3) / 7)
ids = tf.constant([[0, 3], [3, 3]])
with tf.GradientTape() as tape:
    rows = tf.nn.embedding_lookup(table, ids)
    loss = tf.reduce_sum(rows * rows)
grad = tape.gradient(loss, table)
print(rows.numpy())
print(tf.convert_to_tensor(grad).numpy())

weights = tf.Variable(np.cos(np.arange(15) * 0.3).reshape(5, 3).astype(np.float32))
biases = tf.Variable(np.linspace(-0.2, 0.2, 5).astype(np.float32))
x = tf.constant(np.sin(np.arange(6) * 0.7).reshape(2, 3).astype(np.float32))
labels = tf.constant([[1], [3]])
values = (tf.constant([3, 0], tf.int64), tf.constant([[0.3], [0.2]]), tf.constant([0.2, 0.5]))


@tf.function
def losses(inputs):
    with tf.GradientTape() as t:
        nce = tf.nn.nce_loss(weights, biases, labels, inputs, 2, 5, sampled_values=values)
        sm = tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, 2, 5, sampled_values=values)
        total = tf.reduce_sum(nce) + tf.reduce_sum(sm)
    g = t.gradient(total, [weights, biases])
    return nce, sm, [tf.convert_to_tensor(v) for v in g]


for value in tf.nest.flatten(losses(x)):
    print(value.numpy())
drawn = tf.nn.sampled_softmax_loss(weights, biases, labels, x, 3, 5)
cand, true_count, sampled_count = tf.random.log_uniform_candidate_sampler(tf.cast(labels, tf.int64), 1, 3, True, 5)
print(drawn.shape, cand.dtype, cand.shape, true_count.shape, sampled_count.dtype)
try:
    tf.random.log_uniform_candidate_sampler(labels, 1, 3, True, 5)
except tf.errors.InvalidArgumentError as e:
    print("int32 classes:", type(e).__name__)
