# ruff: noqa
import tensorflow as tf

y_true = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
probs = tf.constant([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1]])
logits = tf.constant([[1.0, 3.0, 0.5], [2.0, 1.0, 0.1]])
print(tf.keras.losses.MeanSquaredError()(y_true, probs))
print(tf.keras.losses.MeanAbsoluteError()(y_true, probs))
print(tf.keras.losses.CategoricalCrossentropy()(y_true, probs))
print(tf.keras.losses.CategoricalCrossentropy(from_logits=True)(y_true, logits))
print(tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(tf.constant([1, 0]), logits))
print(tf.keras.losses.SparseCategoricalCrossentropy()(tf.constant([1, 0]), probs))
print(tf.keras.losses.BinaryCrossentropy()(y_true, probs))
print(tf.keras.losses.BinaryCrossentropy(from_logits=True)(y_true, logits))
print(tf.keras.losses.mean_squared_error(y_true, probs))
