"""The engine's synthetic data sets served under real TensorFlow, as ``tfmigrate verify`` serves them.

TF 2.21 has no ``tensorflow.examples.tutorials.mnist``, and ``tf.keras.datasets`` would
download: both read ``runtime/datasets.py`` instead, the tutorial loader reseeding numpy
from real TensorFlow's graph seed as TF1's did.
"""

from __future__ import annotations

import sys


def _graph_seed() -> int | None:
    import tensorflow as tf  # the real module: called before a TF1 face replaces it
    from tensorflow.python.eager import context

    if tf.executing_eagerly():
        return context.global_seed()
    return tf.compat.v1.get_default_graph().seed


def install(tutorial_loader: bool = True) -> None:
    """Point Keras's downloads at the synthetic sets and, unless told not to, mount the
    tutorial loader (a run measuring whether code runs on TF 2.21 as it is must not)."""
    import keras

    from runtime import datasets

    for name, loader in datasets.KERAS_LOADERS.items():
        getattr(keras.datasets, name).load_data = loader
    if not tutorial_loader:
        return
    datasets.mount_tutorial_loader(sys.modules)  # type: ignore[arg-type]
    datasets.graph_seed = _graph_seed
