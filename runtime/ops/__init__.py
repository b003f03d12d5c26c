"""Registered ops, grouped by family. Importing this package registers all of them."""

from runtime.ops import (  # noqa: F401
    array,
    conv_transpose,
    evaluation,
    linalg,
    math,
    nn,
    normalization,
    random,
    state,
)
