"""Wrong TF2 rewrites (``fixtures/mutants/*/mutant.py``) must verify *different* against
their TF1 original; the correct rewrites next to them must verify *equivalent*."""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

from migrate.rules import RULES
from runtime.sandbox import run_program
from runtime.verdict import Options, Verdict, verify_files

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("runtime.run") is None, reason="the engine runner is not built yet"
)

MUTANTS = Path(__file__).resolve().parents[2] / "fixtures" / "mutants"
NAMES = sorted(p.name for p in MUTANTS.iterdir() if (p / "mutant.py").is_file())
WITH_CORRECT = [name for name in NAMES if (MUTANTS / name / "correct.py").is_file()]
# Naming every mistake takes two more runs per mutant: only the tests that check it ask.
OPTIONS = Options(max_steps=60, timeout=120, attribute=False)

# What TF 2.21 raises for the mutants it refuses to run (the others run there and print
# numbers different from the original's).
REAL_TF_RAISES = {
    "absl_flags_read_before_parsing": "UnparsedFlagAccessError",  # absl's FLAGS read before app.run
    "bias_add_operands_swapped": "ValueError",  # Shape must be at least rank 2 but is rank 1 ...
    "confusion_matrix_dtype_as_weights": "TypeError",  # Failed to convert elements of <dtype: 'float32'> ...
    "graph_dropout_flag_as_training": "OperatorNotAllowedInGraphError",  # a TypeError: Dropout tests `training`
    "function_signature_dropped_bool_flag": "TypeError",  # pred must not be a Python bool
    "graph_layer_not_shared": "ValueError",  # reuse=True cannot be used without a name_or_scope
    "in_top_k_v1_order": "TypeError",  # Input 'predictions' of 'InTopKV2' Op has type int32 ...
    "numpy_in_function": "AttributeError",  # 'SymbolicTensor' object has no attribute 'numpy'
    "one_optimizer_two_var_lists": "ValueError",  # Unknown variable: ...
    "summary_writer_closed_before_training": "RuntimeError",  # SummaryWriter ... is already closed
    "variable_scope_reuse_argument_swapped": "ValueError",  # The reuse parameter must be True or False or None.
    "variable_in_function": "ValueError",  # tf.function only supports singleton tf.Variables ...
}


# Mistakes in what a model computes, and the line of each side that the verdict must name
# (``runtime.attribute``): where the original and the rewrite part from the same values.
MISTAKE_LINES = {
    "global_norm_clip_per_tensor": ("tf.clip_by_global_norm", "tf.clip_by_norm"),
    "keep_prob_as_rate": ("keep_prob, seed=7", "0.8, seed=7"),
    "l2_loss_as_sum_of_squares": ("tf.nn.l2_loss(W)", "tf.reduce_sum(tf.square(W))"),
    "label_smoothing_dropped": ("label_smoothing=0.1", "labels=y, logits=logits"),
    "mean_to_sum": ("tf.reduce_mean(tf.square", "tf.reduce_sum(tf.square"),
    "missing_relu": ("hidden = tf.nn.relu", "pred = tf.matmul(hidden, w2)"),
    "relu6_became_relu": ("tf.nn.relu6", "hidden = tf.nn.relu("),
    "transposed_matmul": ("transpose_b=True", "tf.matmul(x, w1) + b1"),
    "wrong_reduce_axis": ("axis=1", "axis=0"),
    "xent_args_positional_swapped": ("with_logits(labels=y_, logits=y)", "with_logits(y, y_)"),
}


# Mutants verify does not tell apart yet, with why; each fails loudly (strict) once it does.
MISSED: dict[str, str] = {}


def expecting_different(names: list[str]) -> list:
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=MISSED[name]))
            if name in MISSED else name for name in names]


# Rules that rewrite nothing: their code stays TF1 under tf.compat.v1, with a finding.
NO_REWRITE = {"TF190", "TF116"}


def mutant_dir(name: str) -> Path:
    return MUTANTS / name


@functools.cache
def verdict(name: str, rewrite: str = "mutant.py", attribute: bool = False) -> Verdict:
    """The verdict on one rewrite against its original, computed once per session."""
    d = mutant_dir(name)
    return verify_files(d / "original.py", d / rewrite, replace(OPTIONS, attribute=attribute))


def test_there_are_enough_mutants_each_with_a_one_line_why() -> None:
    assert len(NAMES) >= 25
    for name in NAMES:
        why = (MUTANTS / name / "WHY.txt").read_text().strip()
        assert why and "\n" not in why, name
        assert (MUTANTS / name / "original.py").is_file(), name


def rules_of(name: str) -> list[str]:
    """The rewrite rules whose output the mutant gets wrong (``RULES.txt``: rule ids)."""
    return (MUTANTS / name / "RULES.txt").read_text().split()


def test_every_mutant_names_the_rules_it_concerns() -> None:
    for name in NAMES:
        assert rules_of(name), name
        assert set(rules_of(name)) <= set(RULES), (name, rules_of(name))


def test_every_rewrite_rule_has_a_mutant() -> None:
    covered = {rule for name in NAMES for rule in rules_of(name)}
    assert set(RULES) - NO_REWRITE - covered == set()


@pytest.mark.parametrize("name", expecting_different(NAMES))
def test_mutant_is_different(name: str) -> None:
    result = verdict(name)
    assert result.status == "different", result.reason
    assert result.exit_code == 1 and result.divergence is not None


@pytest.mark.parametrize("name", expecting_different(NAMES))
def test_mutant_divergence_names_a_source_line(name: str) -> None:
    d = verdict(name).divergence
    assert d is not None, verdict(name).reason
    assert d.old_line is not None or d.new_line is not None


# Correct rewrites holding code the run never calls (a cell's helper method the engine's RNN
# does not use), with those lines: nothing differs, yet they are unverified, not equivalent.
UNREACHED = {
    "gru_gates_swapped": [31],  # build(): pass
    "keras_gru_gates_swapped": [26, 27, 28, 31],  # add_kernel_and_bias(), linear()
    "lstm_forget_bias_dropped": [35],  # build(): pass
}


@pytest.mark.parametrize("name", WITH_CORRECT)
def test_correct_rewrite_is_equivalent(name: str) -> None:
    result = verdict(name, "correct.py")
    assert result.divergence is None, result.reason
    if name in UNREACHED:
        assert (result.status, result.not_run) == ("unverified", UNREACHED[name]), result.reason
        return
    assert result.status == "equivalent", result.reason


@pytest.mark.parametrize("name", NAMES)
def test_mutant_runs_or_fails_on_the_engine_as_on_real_tf(name: str) -> None:
    run = run_program(mutant_dir(name) / "mutant.py", face="tf2", max_steps=60, timeout=120)
    assert run.exception == REAL_TF_RAISES.get(name), run.exception_message
    assert (run.exit_code == 0) == (name not in REAL_TF_RAISES), run.stderr[-2000:]


@pytest.mark.parametrize("name", sorted(REAL_TF_RAISES))
def test_verdict_reports_the_rewrites_exception(name: str) -> None:
    result = verdict(name)
    assert result.status == "different", result.reason
    assert result.divergence.observable == "exit", result.reason
    assert REAL_TF_RAISES[name] in result.reason
    assert result.divergence.new_line is not None


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("name", sorted(MISTAKE_LINES))
def test_verdict_names_the_lines_where_values_part(name: str) -> None:
    result = verdict(name, attribute=True)
    old_text, new_text = MISTAKE_LINES[name]
    expected = (
        line_of(mutant_dir(name) / "original.py", old_text),
        line_of(mutant_dir(name) / "mutant.py", new_text),
    )
    named = [(d.old_line, d.new_line) for d in [result.divergence, *result.also]]
    assert expected in named, result.reason


# Mistakes only a file the program writes shows: TensorBoard events, a checkpoint.
WRITTEN_FILES = {
    "summary_step_from_optimizer": ("summary", "add_summary", "tf.summary.scalar"),
    "checkpoint_file_lacks_bias": ("checkpoint", "saver.save(", ".save(checkpoint_number=step)"),
}


@pytest.mark.parametrize("name", sorted(WRITTEN_FILES))
def test_a_mistake_in_a_written_file_is_found_where_it_is_written(name: str) -> None:
    d = verdict(name).divergence
    observable, old_text, new_text = WRITTEN_FILES[name]
    assert d is not None and d.observable == observable, verdict(name).reason
    assert d.old_line == line_of(mutant_dir(name) / "original.py", old_text)
    assert d.new_line == line_of(mutant_dir(name) / "mutant.py", new_text)
