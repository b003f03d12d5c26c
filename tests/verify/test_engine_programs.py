"""Real TF programs through the engine's runner; skipped until ``runtime.run`` exists."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
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


def test_wrong_learning_rate_is_different_at_the_first_step() -> None:
    old = PROGRAMS / "linreg_tf1.py"
    new = PROGRAMS / "linreg_tf2.py"
    mutant = new.read_text().replace("LEARNING_RATE = 1e-3", "LEARNING_RATE = 1e-2")
    original = old.read_text()
    verdict = verify_sources(original, mutant, PROGRAMS, Options(), filename="linreg_tf1.py")
    d = verdict.divergence
    assert verdict.status == "different", verdict.reason
    # The configuration differs before any value does: the first step names both rates.
    assert (d.observable, d.step) == ("optimizer", 1)
    assert (d.old, d.new) == (float(np.float32(1e-3)), float(np.float32(1e-2)))
    assert "sgd learning_rate 0.001 in the original, 0.01 in the rewrite" in d.detail
    assert d.old_line == line_of(old, "sess.run(train")


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


def test_keras_adam_default_epsilon_is_different_on_a_short_run() -> None:
    """Keras's default epsilon (1e-7) for TF1's 1e-8 stays inside the numeric tolerance for
    many steps; the optimizer's configuration is compared, so it shows at the first step."""
    old, new = PROGRAMS / "mlp_adam_tf1.py", PROGRAMS / "mlp_adam_tf2.py"
    tf2 = new.read_text().replace("Adam(1e-3, epsilon=1e-8)", "Adam(1e-3)")
    assert tf2 != new.read_text()
    verdict = verify_sources(old.read_text(), tf2, PROGRAMS, Options(max_steps=5), filename="mlp_adam_tf1.py")
    d = verdict.divergence
    assert verdict.status == "different", verdict.reason
    assert (d.observable, d.step) == ("optimizer", 1)
    assert "adam epsilon 1e-08 in the original, 1e-07 in the rewrite" in d.detail
    same = verify_sources(old.read_text(), new.read_text(), PROGRAMS, Options(max_steps=5),
                          filename="mlp_adam_tf1.py")
    assert same.status == "equivalent", same.reason


def test_a_dense_features_rewrite_the_engine_cannot_run_is_unverified(tmp_path) -> None:
    """The engine has no feature columns: the rewrite's `input_layer` is unsupported, never
    a crash both sides share (which could read as agreement)."""
    from migrate.api import rewrite_source

    original = (
        "import tensorflow as tf\nimport tensorflow.compat.v1 as tf1\n"
        "def call_feature_columns(feature_columns, inputs):\n"
        "  feature_layer = tf1.keras.layers.DenseFeatures(feature_columns)\n"
        "  return feature_layer(inputs)\n"
        "print(call_feature_columns([], {'foo': tf.constant([1.0])}))\n"
    )
    rewrite = rewrite_source(original).code
    assert "feature_column.input_layer" in rewrite
    verdict = verify_sources(original, rewrite, tmp_path, Options())
    assert verdict.status == "unverified"
    assert verdict.reason == "unsupported API tf.compat.v1.feature_column.input_layer (rewrite)"


def test_a_name_based_saver_rewrite_is_never_called_equivalent_unchecked() -> None:
    """A Saver kept name-based reads its keys back (`load_checkpoint`): the engine has no
    checkpoint reader, so the pair is unverified rather than compared without the reads."""
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "programs" / "saver_read_by_tf1_name"
    verdict = verify_files(fixture / "before.py", fixture / "after.py", Options())
    assert verdict.status == "unverified"
    assert verdict.reason.startswith("unsupported API tf.train.")


def test_course_code_resets_the_graph_through_framework_ops_and_nothing_else_of_it_runs(tmp_path) -> None:
    """`from tensorflow.python.framework import ops; ops.reset_default_graph()` runs as
    tf.compat.v1's; any other name of TF's internals is a loud Unsupported."""
    program = (
        "import tensorflow as tf\nfrom tensorflow.python.framework import ops\n"
        "ops.reset_default_graph()\nw = tf.Variable(2.0)\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    print(sess.run(w))\n"
    )
    rewrite = "import tensorflow as tf\nw = tf.Variable(2.0)\nprint(w.numpy())\n"
    assert verify_sources(program, rewrite, tmp_path, Options()).status == "equivalent"
    other = program.replace("ops.reset_default_graph()", "ops.convert_to_tensor(1.0)")
    verdict = verify_sources(other, rewrite, tmp_path, Options())
    assert verdict.status == "unverified"
    assert verdict.reason == "unsupported API tensorflow.python.framework.ops.convert_to_tensor (original)"
