"""Every corpus program's rewrite runs on real TensorFlow 2.21.

Each program is rewritten in memory and run in a scratch folder on the referee
interpreter, with the tutorial MNIST loader (which TF 2.21 no longer ships, and
which a rewrite keeps) served from the engine's synthetic data. The runs are
long training loops, so they share two workers and one fixture, which runs the
programs the session selected (so ``-k NAME`` runs one).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from migrate.api import rewrite_source

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import run_program

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.py"))
FACE = Path(__file__).resolve().parent / "synthetic_mnist_face.py"


@pytest.fixture(scope="module")
def outcomes(
    real_tf: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> dict[str, dict]:
    selected = [
        item.callspec.params["program"]
        for item in request.session.items
        if item.module is request.module and hasattr(item, "callspec")
    ]
    folder = tmp_path_factory.mktemp("rewrites")
    for program in selected:
        (folder / program.name).write_bytes(rewrite_source(program.read_bytes()).code)

    def run(program: Path) -> tuple[str, dict]:
        return program.stem, run_program(real_tf, FACE, folder / program.name, extra=["--tf2"])

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(run, selected))


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_rewrite_runs_on_real_tf(program: Path, outcomes: dict[str, dict]) -> None:
    outcome = outcomes[program.stem]
    assert outcome["rc"] == 0, outcome.get("exception")
