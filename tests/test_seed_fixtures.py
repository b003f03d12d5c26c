"""The seed fixtures: every code block of both seed documents, with what real TF 2.21 did."""

from __future__ import annotations

import ast
import sys

import pytest

from tests.referee import (
    ROOT,
    SEEDS,
    Outcome,
    load_manifest,
    real_tf_command,
    run_program,
)
from tests.runtime.helpers import mask_numbers

MANIFEST = load_manifest()
RUNS = [(name, face) for name, entry in MANIFEST.items() for face in entry["runs"]]


#: How much of a recorded output a rerun must reproduce (a fixture's ``compare`` key):
#: ``exact``; ``masked`` — random values, so numbers are masked; ``outcome`` — real TF itself
#: prints this output differently from run to run, so only exit status and exception count.
COMPARE_MODES = ("exact", "masked", "outcome")


def assert_same_outcome(got: Outcome, expected: dict, *, compare: str) -> None:
    """Exit status and exception type always; stdout as the fixture's ``compare`` mode says."""
    assert (got.rc, got.error) == (expected["rc"], expected["error"])
    if compare == "outcome":
        return
    if compare == "masked":
        assert mask_numbers(got.stdout) == mask_numbers(expected["stdout"])
    else:
        assert got.stdout == expected["stdout"]
    if expected.get("stderr") is not None:
        assert got.stderr == expected["stderr"]


def test_every_fixture_is_in_the_manifest_with_a_recorded_run() -> None:
    on_disk = {path.name for path in SEEDS.glob("*.py")}
    assert on_disk == set(MANIFEST)
    for name, entry in MANIFEST.items():
        assert entry["runs"], name
        for face, outcome in entry["runs"].items():
            assert face in {"tf1", "tf2"}
            assert outcome is not None and {"rc", "stdout", "error"} <= set(outcome), name
        assert entry.get("compare", "exact") in COMPARE_MODES, name


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_fixture_parses(name: str) -> None:
    ast.parse((SEEDS / name).read_text(encoding="utf-8"))


@pytest.mark.tf
@pytest.mark.parametrize(("name", "face"), RUNS)
def test_real_tf_still_prints_the_recorded_output(real_tf: str, name: str, face: str) -> None:
    entry = MANIFEST[name]
    got = run_program(real_tf_command(real_tf, face), SEEDS / name, entry.get("stdin", ""))
    assert_same_outcome(got, entry["runs"][face], compare=entry.get("compare", "exact"))


@pytest.mark.parametrize(("name", "face"), RUNS)
def test_engine_prints_what_real_tf_printed(name: str, face: str) -> None:
    """``tfmigrate run`` on every seed: the same stdout (and tf.print output), or the same exception type."""
    entry = MANIFEST[name]
    engine = [sys.executable, "-m", "runtime.run", "--face", face]
    got = run_program(engine, SEEDS / name, entry.get("stdin", ""), env={"PYTHONPATH": str(ROOT)})
    assert_same_outcome(got, entry["runs"][face], compare=entry.get("compare", "exact"))
