"""TF's logger: what scripts log goes to stderr in TF's format, at TF's levels and counts.

Conformance programs c163/c164 hold the levels a program prints; this holds the log lines,
which go to stderr, recorded from real TF 2.21 (and checked against it in the tf tier).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.helpers import run_engine
from tests.runtime.record_conformance import run_on_tf

PROGRAM = Path(__file__).resolve().parent / "conformance" / "c163_tf1_logging.py"
# Every log_every_n / log_first_n call shares one count in TF 2.21: it keys the count by the
# first frame outside its logging module, which is TF's API wrapper for every caller.
LOGGED = [
    "INFO:tensorflow:step 3 loss 0.250",
    "WARNING:tensorflow:careful",
    "INFO:tensorflow:every 0",
    "INFO:tensorflow:first 0",
    "INFO:tensorflow:every 1",
    "INFO:tensorflow:every 2",
    "INFO:tensorflow:every 3",
    "INFO:tensorflow:every 4",
]


def _logged(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":tensorflow:" in line]


def test_engine_logs_what_tf_logs() -> None:
    proc = run_engine(PROGRAM)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _logged(proc.stderr) == LOGGED


@pytest.mark.tf
def test_real_tf_logs_the_recorded_lines(real_tf: str) -> None:
    proc = run_on_tf(real_tf, PROGRAM)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _logged(proc.stderr) == LOGGED
