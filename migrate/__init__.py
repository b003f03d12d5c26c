"""tfmigrate: rewrite TensorFlow 1 graph code into idiomatic TensorFlow 2."""

__version__ = "0.1.0"
