# ruff: noqa
import numpy as np
import tensorflow as tf

t = tf.constant([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
p = tf.constant([[0.3, 2.5], [0.8, -0.4], [0.1, 0.9]])
sw = tf.constant([1.0, 0.0, 3.0])
for reduction in ['sum_over_batch_size', 'sum', 'none', 'mean', 'mean_with_sample_weight']:
    row = []
    for loss in [tf.keras.losses.MeanSquaredError(reduction=reduction),
                 tf.keras.losses.Huber(delta=0.5, reduction=reduction),
                 tf.keras.losses.CategoricalCrossentropy(from_logits=True, reduction=reduction),
                 tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=reduction)]:
        row.append(np.round(loss(t, p).numpy(), 5).tolist())
        row.append(np.round(loss(t, p, sample_weight=sw).numpy(), 5).tolist())
    print(reduction, row)
sparse = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction='sum')
print(np.round(sparse(tf.constant([1, 0, 1]), p).numpy(), 5))
try:
    sparse([1, 0, 1], p)
except ValueError as e:
    print('ValueError', str(e).split(',')[0])
try:
    tf.keras.losses.MeanSquaredError(reduction='bogus')
except ValueError as e:
    print('ValueError')
