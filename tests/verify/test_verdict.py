"""End to end: two programs in, one verdict out (plain-Python runner, no engine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runtime.sandbox import python_command
from runtime.verdict import EXIT_CODES, Options, verify_files, verify_sources

TRAINING = """
from fake_engine import Var, sgd
import numpy as np

w = Var("w:0", [1.0, -2.0])
b = Var("b:0", 0.5)
x = np.random.rand(8).astype(np.float32)
for step in range(12):
    err = w.value[0] * x + w.value[1] - b.value
    grad_w = np.array([np.mean(err * x), np.mean(err)], np.float32) * SCALE
    sgd([(grad_w, w), (np.float32(-np.mean(err)), b)], 0.1)
    if step % 4 == 0:
        print("step", step, "loss", float(np.mean(err ** 2)))
print(w.numpy(), b.numpy())
"""


def program(write_program, name: str, scale: float, directory: Path | None = None) -> Path:
    return write_program(TRAINING.replace("SCALE", repr(scale)), name, directory)


def verify(old: Path, new: Path, **options) -> object:
    return verify_files(old, new, Options(timeout=60, **options), runner=python_command)


def test_identical_programs_are_equivalent(write_program) -> None:
    old = program(write_program, "old.py", 1.0)
    new = program(write_program, "new.py", 1.0)
    verdict = verify(old, new)
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.exit_code == 0 and verdict.steps_compared == 12
    assert "12 optimizer steps, 2 final variables and 9 printed numbers agree" in verdict.reason


def test_drift_below_tolerance_is_equivalent(write_program) -> None:
    # below the free run's tolerance and the lockstep's (1e-5 of a gradient, every step)
    verdict = verify(
        program(write_program, "old.py", 1.0), program(write_program, "new.py", 1 + 2e-6)
    )
    assert verdict.status == "equivalent", verdict.reason
    assert 0 < verdict.max_rel_diff < 1e-4


def test_a_wrong_update_is_different_with_step_variable_and_lines(write_program) -> None:
    verdict = verify(program(write_program, "old.py", 1.0), program(write_program, "new.py", 1.007))
    assert verdict.status == "different" and verdict.exit_code == 1
    d = verdict.divergence
    assert (d.observable, d.step, d.variable) == ("gradient", 1, "w")
    assert d.old_line == d.new_line == 5  # the line that created w
    assert "step 1" in verdict.reason and "line 5" in verdict.reason
    assert "update applied at original line 11, rewrite line 11" in d.detail


def test_a_tighter_tolerance_turns_drift_into_a_difference(write_program) -> None:
    old, new = program(write_program, "old.py", 1.0), program(write_program, "new.py", 1 + 1e-5)
    assert verify(old, new, rtol=1e-7, atol=0.0).status == "different"


def test_max_steps_compares_the_first_steps_only(write_program) -> None:
    old, new = program(write_program, "old.py", 1.0), program(write_program, "new.py", 1.0)
    verdict = verify(old, new, max_steps=3)
    assert verdict.status == "equivalent" and verdict.steps_compared == 3
    assert any("stopped after 3 optimizer steps" in note for note in verdict.notes), verdict.notes


def test_argv_reaches_both_programs(write_program) -> None:
    old = write_program("import sys\nprint(sys.argv[1])\n", "old.py")
    new = write_program("import sys\nprint(sys.argv[-1])\n", "new.py")
    assert verify(old, new, argv=["a", "b"]).status == "different"
    assert verify(old, new, argv=["a"]).status == "equivalent"


def test_unsupported_api_is_unverified(write_program) -> None:
    old = write_program(
        """
        class Unsupported(NotImplementedError):
            pass
        raise Unsupported("tf.contrib.rnn.LSTMCell is not supported by the tfmigrate engine")
    """,
        "old.py",
    )
    new = write_program("print(1)\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "unverified" and verdict.exit_code == 3
    assert verdict.reason == "unsupported API tf.contrib.rnn.LSTMCell (original)"
    swapped = verify(new, old)
    assert swapped.reason == "unsupported API tf.contrib.rnn.LSTMCell (rewrite)"


def test_a_failing_original_is_unverified_even_when_the_rewrite_fails_alike(write_program) -> None:
    old = write_program("print('x')\nprint(1 / 0)\n", "old.py")
    ok = write_program("print('x')\n", "ok.py")
    same = write_program("print('x')\nprint({}['k'] if False else 1 / 0)\n", "same.py")
    other = write_program("print('x')\nraise TypeError('int32')\n", "other.py")
    verdict = verify(old, ok)
    assert verdict.status == "unverified"
    assert verdict.reason == "the original itself fails: ZeroDivisionError: division by zero"
    both = verify(old, same)
    assert both.status == "unverified" and both.exit_code == 3
    assert both.reason == (
        "neither program ran to the end: both raise ZeroDivisionError at original line 2 / rewrite line 2"
    )
    assert verify(old, other).status == "unverified"


def test_programs_that_fail_alike_after_printing_different_values_are_different(write_program) -> None:
    old = write_program("print(1.5)\nimport tensorflow.contrib.slim\n", "old.py")
    new = write_program("print(180)\nimport tensorflow.contrib.slim\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "different", verdict.reason


def test_both_ending_before_writing_a_trace_is_unverified(write_program) -> None:
    """``os._exit`` skips the trace file: there is nothing to compare, and nothing to crash on."""
    old = write_program("import os\nprint(2, flush=True)\nos._exit(3)\n", "old.py")
    new = write_program("import os\nprint(2, flush=True)\nos._exit(3)\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "unverified"
    assert verdict.reason == "neither program ran to the end: both end with exit status 3"


def test_both_ending_with_the_same_exit_status_is_unverified(write_program) -> None:
    old = write_program("import sys\nprint(2)\nsys.exit(4)\n", "old.py")
    new = write_program("import sys\nprint(2)\nsys.exit(4)\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "unverified"
    assert verdict.reason.startswith("neither program ran to the end: both end with exit status 4")


def test_a_crashing_rewrite_is_different(write_program) -> None:
    old = write_program("print('x')\nprint('y')\n", "old.py")
    new = write_program(
        "print('x')\nraise AttributeError(\"'SGD' object has no attribute 'minimize'\")\n", "new.py"
    )
    verdict = verify(old, new)
    assert verdict.status == "different" and verdict.divergence.observable == "exit"
    assert "AttributeError" in verdict.reason
    assert (verdict.divergence.old_line, verdict.divergence.new_line) == (None, 2)


def test_timeout_is_unverified(write_program) -> None:
    old = write_program("print(1)\n", "old.py")
    new = write_program("import time\ntime.sleep(600)\n", "new.py")
    # Long enough for the original to start and finish on a busy machine.
    verdict = verify_files(old, new, Options(timeout=8.0), runner=python_command)
    assert verdict.status == "unverified" and "rewrite timed out" in verdict.reason


def test_memory_cap_is_unverified(write_program) -> None:
    old = write_program("import numpy as np\nx = np.ones(400_000_000)\n", "old.py")
    verdict = verify(old, old, memory_mb=400)
    assert verdict.status == "unverified" and "400 MB memory cap" in verdict.reason


def test_verify_sources_runs_in_copies_of_the_workdir(tmp_path: Path) -> None:
    (tmp_path / "numbers.txt").write_text("1.5 2.5")
    old_src = "print(sum(map(float, open('numbers.txt').read().split())))\n"
    new_src = "vals = open('numbers.txt').read().split()\nprint(float(vals[0]) + float(vals[1]))\n"
    writer_src = "open('numbers.txt', 'w').write('x')\nprint(4.0)\n"
    options = Options(timeout=60)
    verdict = verify_sources(
        old_src, new_src, tmp_path, options, filename="train.py", runner=python_command
    )
    assert verdict.status == "equivalent", verdict.reason
    assert verify_sources(old_src, writer_src, tmp_path, options, runner=python_command).status == (
        "equivalent"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numbers.txt"]
    assert (tmp_path / "numbers.txt").read_text() == "1.5 2.5"


def test_printed_text_difference_is_reported_as_text_only(write_program) -> None:
    old = write_program("print('Loss:', 0.5)\n", "old.py")
    new = write_program("print('loss:', 0.5)\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "different" and "text-only" in verdict.reason


def test_to_dict_is_strict_json(write_program) -> None:
    old = write_program("print(float('nan'), 1.0)\n", "old.py")
    new = write_program("print(float('nan'), 2.0)\n", "new.py")
    data = verify(old, new).to_dict()
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text)["divergence"]["observable"] == "stdout"
    assert set(data) >= {
        "status",
        "reason",
        "steps_compared",
        "max_abs_diff",
        "max_rel_diff",
        "divergence",
    }
    assert set(data["divergence"]) == {
        "observable",
        "step",
        "variable",
        "old",
        "new",
        "old_line",
        "new_line",
        "detail",
        "incomparable",
    }


@pytest.mark.parametrize(
    ("status", "code"), [("equivalent", 0), ("different", 1), ("unverified", 3)]
)
def test_exit_codes(status: str, code: int) -> None:
    assert EXIT_CODES[status] == code


def test_printed_difference_names_the_print_lines_and_the_steps_before(write_program) -> None:
    body = (
        'from fake_engine import Var, sgd\nw = Var("w:0", 1.0)\nprint("start")\n'
        "for i in range(3):\n    sgd([(1.0, w)], 0.5)\n{pad}"
        'print("w is", float(w.value) {op} 0.0)\n'
    )
    old = write_program(body.format(pad="", op="+"), "old.py")
    new = write_program(body.format(pad="\n", op="*"), "new.py")
    verdict = verify(old, new)
    d = verdict.divergence
    assert (d.observable, d.step, d.old, d.new) == ("stdout", 3, "-0.5", "-0.0")
    assert (d.old_line, d.new_line) == (6, 7)
    assert verdict.reason.startswith("stdout after step 3: output differs")


def test_a_directory_too_large_to_copy_is_unverified(
    write_program, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = write_program("print(1)\n", "old.py")
    (old.parent / "big.bin").write_bytes(b"\0" * 4096)
    monkeypatch.setattr("runtime.sandbox.COPY_LIMIT_BYTES", 2048)
    verdict = verify(old, old)
    assert verdict.status == "unverified" and "smaller directory" in verdict.reason


def test_a_missing_program_is_unverified(tmp_path: Path) -> None:
    present = tmp_path / "old.py"
    present.write_text("print(1)\n")
    verdict = verify(present, tmp_path / "missing.py")
    assert verdict.status == "unverified" and "missing.py does not exist" in verdict.reason


@pytest.mark.parametrize(("printed", "why"), [
    ('Tensor("Const:0", shape=(), dtype=float32)', "the original prints a graph tensor's description"),
    ('Tensor("add:0", shape=(2, 3), dtype=float32)', "the original prints a graph tensor's description"),
    ("<runtime.data.Iterator_ object at 0x7f8e78667450>", "the original prints an object's memory address"),
])
def test_a_first_difference_on_an_incomparable_print_is_unverified(write_program, printed: str, why: str) -> None:
    old = write_program(f"print('total', 3.0)\nprint({printed!r})\n", "old.py")
    new = write_program("print('total', 3.0)\nprint('tf.Tensor(3.0, shape=(), dtype=float32)')\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "unverified", verdict.reason
    assert verdict.reason.startswith(f"{why} ({printed})")


def test_a_difference_before_an_incomparable_print_is_still_different(write_program) -> None:
    old = write_program("print('total', 3.0)\nprint('Tensor(\"Const:0\", shape=(), dtype=float32)')\n", "old.py")
    new = write_program("print('total', 4.0)\nprint('tf.Tensor(3.0, shape=(), dtype=float32)')\n", "new.py")
    verdict = verify(old, new)
    assert verdict.status == "different", verdict.reason


def test_a_counter_only_one_side_keeps_is_unverified_and_named(write_program) -> None:
    old = program(write_program, "old.py", 1.0)
    counted = TRAINING.replace('b = Var("b:0", 0.5)', 'b = Var("b:0", 0.5)\nseen = Var("seen:0", 12.0, trainable=False)')
    new = write_program(counted.replace("SCALE", "1.0"), "new.py")
    result = verify(old, new)
    assert result.status == "unverified"
    assert "the rewrite's seen (shape (), line 7) has no counterpart" in result.reason
    assert verify(new, old).status == "unverified"
