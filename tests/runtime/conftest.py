"""Tests import the engine in-process; ops must be registered before use."""

import runtime.ops  # noqa: F401
