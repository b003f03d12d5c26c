"""Conformance programs: engine stdout and exit must match real TF's.

The seed code blocks are held to real TF the same way in ``tests/test_seed_fixtures.py``.

Expected outputs (``*.stdout``, ``*.result``) were recorded from TensorFlow 2.21 by
``record_conformance.py``. Output must be identical, or differ only in float32 rounding of
printed numbers (``same_output``). Programs marked ``# compare: masked`` print random values
and are compared with numbers masked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.helpers import mask_numbers, run_engine, same_output
from tests.runtime.record_conformance import DIRS, exception_type

PROGRAMS = [p for d in DIRS for p in sorted(d.glob("*.py")) if p.with_suffix(".stdout").exists()]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_matches_tensorflow(program: Path) -> None:
    source = program.read_text()
    stdin_file = program.with_suffix(".stdin")
    stdin = stdin_file.read_text() if stdin_file.exists() else ""
    face = "tf1" if "# face: tf1" in source else ("tf2" if "# face: tf2" in source else "auto")
    proc = run_engine(program, face=face, stdin=stdin)
    expected = program.with_suffix(".stdout").read_text()
    rc_text, _, exc = program.with_suffix(".result").read_text().strip().partition(" ")
    if "# compare: masked" in source:
        assert mask_numbers(proc.stdout) == mask_numbers(expected)
    else:
        assert proc.stdout == expected or same_output(proc.stdout, expected), (
            proc.stdout + "\n---- expected ----\n" + expected + proc.stderr[-2000:])
    assert (proc.returncode == 0) == (int(rc_text) == 0), proc.stderr[-2000:]
    assert exception_type(proc.stderr) == exc, proc.stderr[-2000:]
