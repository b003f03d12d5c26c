"""Real TF programs through the engine's runner; skipped until ``runtime.run`` exists."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from runtime.verdict import Options, verify_files, verify_sources

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("runtime.run") is None, reason="the engine runner is not built yet"
)

PROGRAMS = Path(__file__).parent / "programs"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "verify"


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_worked_target_rewrite_is_equivalent() -> None:
    verdict = verify_files(PROGRAMS / "linreg_tf1.py", PROGRAMS / "linreg_tf2.py", Options())
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.steps_compared == 300


def test_wrong_learning_rate_is_different_at_the_second_step() -> None:
    old = PROGRAMS / "linreg_tf1.py"
    new = PROGRAMS / "linreg_tf2.py"
    mutant = new.read_text().replace("LEARNING_RATE = 1e-3", "LEARNING_RATE = 1e-2")
    original = old.read_text()
    verdict = verify_sources(original, mutant, PROGRAMS, Options(), filename="linreg_tf1.py")
    d = verdict.divergence
    assert verdict.status == "different", verdict.reason
    assert (d.observable, d.step) == ("gradient", 2)
    assert d.old_line in {line_of(old, 'get_variable("a"'), line_of(old, 'get_variable("b"')}


def test_max_steps_stops_both_sides() -> None:
    verdict = verify_files(
        PROGRAMS / "linreg_tf1.py", PROGRAMS / "linreg_tf2.py", Options(max_steps=20)
    )
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.steps_compared == 20


def test_guides_hand_migration_is_not_equivalent_and_names_both_lines() -> None:
    old, new = FIXTURES / "variable_scope_tf1.py", PROGRAMS / "scope_tf2_hand.py"
    verdict = verify_files(old, new, Options())
    d = verdict.divergence
    assert verdict.status == "different", verdict.reason
    assert (d.observable, d.variable) == ("variable", "dense2/weight")
    assert d.old_line == line_of(old, "name='weight'")
    assert d.new_line == line_of(new, 'name="weight"')


def test_correct_adam_rewrite_is_equivalent_despite_keras_drift() -> None:
    old, new = PROGRAMS / "mlp_adam_tf1.py", PROGRAMS / "mlp_adam_tf2.py"
    verdict = verify_files(old, new, Options())
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.steps_compared == 300 and 0 < verdict.max_rel_diff < 1e-4


def test_rmsprop_without_tf1_accumulator_start_is_different_early() -> None:
    old, new = PROGRAMS / "mlp_adam_tf1.py", PROGRAMS / "mlp_adam_tf2.py"
    tf1 = old.read_text().replace("AdamOptimizer(1e-3)", "RMSPropOptimizer(1e-3)")
    tf2 = new.read_text().replace("Adam(1e-3, epsilon=1e-8)", "RMSprop(1e-3, epsilon=1e-10)")
    verdict = verify_sources(tf1, tf2, PROGRAMS, Options(), filename="mlp_adam_tf1.py")
    d = verdict.divergence
    assert verdict.status == "different", verdict.reason
    assert (d.observable, d.step) == ("gradient", 2)
