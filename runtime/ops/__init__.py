"""Registered ops, grouped by family. Importing this package registers all of them."""

from runtime.ops import array, evaluation, linalg, math, nn, normalization, random, state  # noqa: F401
