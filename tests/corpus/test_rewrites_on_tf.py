"""Every corpus program's rewrite runs on real TensorFlow 2.21.

Each program is rewritten in memory and run in a scratch folder on the referee
interpreter, with the tutorial MNIST loader (which TF 2.21 no longer ships, and
which a rewrite keeps) served from the engine's synthetic data. Each
program runs in a child of the warm TensorFlow server (``tests/tf_runner.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from migrate.api import rewrite_source

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import run_program

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.py"))
FACE = Path(__file__).resolve().parent / "synthetic_mnist_face.py"


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_rewrite_runs_on_real_tf(program: Path, real_tf: str, tmp_path: Path) -> None:
    rewritten = tmp_path / program.name
    rewritten.write_bytes(rewrite_source(program.read_bytes()).code)
    outcome = run_program(real_tf, FACE, rewritten, extra=["--tf2"])
    assert outcome["rc"] == 0, outcome.get("exception")
