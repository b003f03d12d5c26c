"""Keras 3 as seen through ``tf.keras`` in TF 2.21: Layer, Model, Dense, optimizers."""
