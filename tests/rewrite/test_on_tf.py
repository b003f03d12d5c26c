"""Each fixture's before.py (TF1 graph mode) and after.py (TF 2) print the same numbers on real TF."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from check_on_tf import FIXTURES, check, missing_modules

PROGRAMS = sorted(p.name for p in FIXTURES.iterdir() if (p / "after.py").exists())


@pytest.mark.tf
@pytest.mark.parametrize("name", PROGRAMS)
def test_fixture_agrees_on_real_tensorflow(name: str) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    missing = missing_modules(python, FIXTURES / name)
    if missing:
        pytest.skip(f"{python} lacks {', '.join(missing)}")
    ok, message = check(python, Path(FIXTURES / name))
    assert ok, message
