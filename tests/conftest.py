"""Shared test setup: the `tf` tier needs a real TensorFlow interpreter."""

from __future__ import annotations

import pytest

from tests.referee import TF_PYTHON_ENV, tf_python


@pytest.fixture(scope="session")
def real_tf() -> str:
    """Path of a Python with tensorflow-cpu==2.21.0; skips with instructions when absent."""
    python = tf_python()
    if python is None:
        pytest.skip(
            f"the tf tier needs a real TensorFlow 2.21: "
            f"python -m venv .tf-venv && .tf-venv/bin/pip install tensorflow-cpu==2.21.0 "
            f"&& export {TF_PYTHON_ENV}=$PWD/.tf-venv/bin/python"
        )
    return python
