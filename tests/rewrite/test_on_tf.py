"""Each fixture's before.py (TF1 graph mode) and after.py (TF 2) print the same numbers on real TF,
and so does each hand rewrite (hand.py), the measure `benchmarks/output_quality.py` compares with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from check_on_tf import FIXTURES, check, missing_modules

PROGRAMS = sorted(p.name for p in FIXTURES.iterdir() if (p / "after.py").exists())
HAND = sorted(p.name for p in FIXTURES.iterdir() if (p / "hand.py").exists())


def _python() -> str:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    return python


@pytest.mark.tf
@pytest.mark.parametrize("name", PROGRAMS)
def test_fixture_agrees_on_real_tensorflow(name: str) -> None:
    python = _python()
    missing = missing_modules(python, FIXTURES / name)
    if missing:
        pytest.skip(f"{python} lacks {', '.join(missing)}")
    ok, message = check(python, Path(FIXTURES / name))
    assert ok, message


@pytest.mark.tf
@pytest.mark.parametrize("name", HAND)
def test_hand_rewrite_prints_the_original_s_numbers_on_real_tensorflow(name: str) -> None:
    ok, message = check(_python(), FIXTURES / name, "hand.py")
    assert ok, message


def test_at_least_twelve_goldens_have_a_hand_rewrite() -> None:
    assert len(HAND) >= 12 and set(HAND) <= set(PROGRAMS)
