"""The referee for the conformance programs: real TF 2.21 still prints what was recorded.

The engine is held to these recordings (``test_programs.py``); this tier shows the
recordings are what TensorFlow does, so the engine is not held to a stale or wrong answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.helpers import mask_numbers, same_output
from tests.runtime.record_conformance import exception_type, run_on_tf
from tests.runtime.test_programs import PROGRAMS


@pytest.mark.tf
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_real_tf_prints_the_recorded_output(real_tf: str, program: Path) -> None:
    proc = run_on_tf(real_tf, program)
    expected = program.with_suffix(".stdout").read_text()
    rc_text, _, exc = program.with_suffix(".result").read_text().strip().partition(" ")
    if "# compare: masked" in program.read_text():
        assert mask_numbers(proc.stdout) == mask_numbers(expected)
    else:
        assert proc.stdout == expected or same_output(proc.stdout, expected), proc.stdout
    assert (proc.returncode == 0) == (int(rc_text) == 0), proc.stderr[-2000:]
    assert exception_type(proc.stderr) == exc, proc.stderr[-2000:]
