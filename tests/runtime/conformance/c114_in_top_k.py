# ruff: noqa
import numpy as np
import tensorflow as tf

preds = tf.constant([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.2, 0.3], [np.nan, 0.1, 0.2]])
targets = tf.constant([1, 0, 2, 0])
for k in [1, 2, 3]:
    print(k, tf.math.in_top_k(targets, preds, k).numpy(), tf.nn.in_top_k(targets=targets, predictions=preds, k=k).numpy())
print(tf.compat.v1.nn.in_top_k(preds, targets, 1).numpy(), tf.compat.v1.math.in_top_k(preds, targets, 2).numpy())
