"""Registered ops, grouped by family. Importing this package registers all of them."""

from runtime.ops import array, math, nn, random, state  # noqa: F401
