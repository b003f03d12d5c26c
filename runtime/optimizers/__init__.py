"""TF1 ``tf.train`` optimizers (C++ kernel formulas) and Keras 3 optimizers (Keras formulas)."""
