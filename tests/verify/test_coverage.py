"""A rewrite is equivalent only when every line it changed ran."""

from __future__ import annotations

from pathlib import Path

from runtime.line_coverage import changed_statements, not_run, ranges
from runtime.sandbox import python_command
from runtime.verdict import Options, verify_files, verify_sources

TRAINING = """\
from fake_engine import Var, sgd
import numpy as np

w = Var("w:0", [1.0, -2.0])
x = np.linspace(0.0, 1.0, 8).astype(np.float32)
for step in range(LIMIT):
    err = w.value[0] * x + w.value[1]
    loss = float(np.mean(err ** 2))
    BRANCH
    sgd([(np.array([np.mean(err * x), np.mean(err)], np.float32), w)], 0.1)
print(w.numpy(), loss)
"""

GUARD = "if step > 10**9:\n        loss = loss * 2"


def training(branch: str = "pass", limit: int = 5) -> str:
    return TRAINING.replace("BRANCH", branch).replace("LIMIT", str(limit))


def verify(write_program, old_src: str, new_src: str):
    old = write_program(old_src, "old.py")
    new = write_program(new_src, "new.py")
    return verify_files(old, new, Options(timeout=60), runner=python_command)


def test_an_unreached_changed_branch_is_unverified_naming_its_lines(write_program) -> None:
    verdict = verify(write_program, training(), training(GUARD))
    assert verdict.status == "unverified" and verdict.exit_code == 3, verdict.reason
    assert verdict.not_run == [10]  # line 9, the condition, ran
    assert "1 changed line of the rewrite never ran: 10;" in verdict.reason


def test_the_same_change_reached_is_different(write_program) -> None:
    reached = GUARD.replace("10**9", "2")
    verdict = verify(write_program, training(), training(reached))
    assert verdict.status == "different", verdict.reason


def test_an_unreached_branch_nothing_changed_is_equivalent(write_program) -> None:
    verdict = verify(write_program, training(GUARD), training(GUARD))
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.not_run == []


def test_a_rewrite_whose_changed_lines_all_ran_is_equivalent(write_program) -> None:
    rewrite = training().replace("float(np.mean(err ** 2))", "float(np.mean(np.square(err)))")
    verdict = verify(write_program, training(), rewrite)
    assert verdict.status == "equivalent", verdict.reason


def test_every_unreached_line_is_named(write_program) -> None:
    guard = "if step > 10**9:\n        loss = loss * 2\n        print(loss)"
    verdict = verify(write_program, training(), training(guard))
    assert verdict.not_run == [10, 11]
    assert "2 changed lines of the rewrite never ran: 10-11; a test input" in verdict.reason


def test_vouched_lines_need_not_run_and_the_notes_say_so(write_program) -> None:
    old = write_program(training(), "old.py")
    new = write_program(training(GUARD), "new.py")
    verdict = verify_files(old, new, Options(timeout=60, vouched=frozenset({10})), runner=python_command)
    assert verdict.status == "equivalent", verdict.reason
    assert ("changed lines 10 of the rewriter's own helpers did not run; their own tests vouch "
            "for them") in verdict.notes
    others = verify_files(old, new, Options(timeout=60, vouched=frozenset({9})), runner=python_command)
    assert (others.status, others.not_run) == ("unverified", [10])


def test_a_rewrite_that_records_no_coverage_vouches_for_no_changed_line(write_program) -> None:
    ending = "import os, sys\nprint(VALUE)\nsys.stdout.flush()\nos._exit(0)\n"
    verdict = verify(write_program, ending.replace("VALUE", "1"), ending.replace("VALUE", "2 - 1"))
    assert (verdict.status, verdict.not_run) == ("unverified", [2]), verdict.reason
    assert "without recording line coverage" in verdict.reason


def test_in_memory_rewrites_are_held_to_the_same_rule(write_program, tmp_path: Path) -> None:
    write_program("", "main.py")
    options = Options(timeout=60)
    old, new = training(), training(GUARD)
    verdict = verify_sources(old, new, tmp_path, options, runner=python_command)
    assert verdict.status == "unverified" and verdict.not_run == [10], verdict.reason


def test_an_unreached_except_clause_counts_as_not_run() -> None:
    old = "try:\n    x = 1\nexcept ValueError:\n    x = 2\n"
    new = old.replace("ValueError", "TypeError")
    assert not_run(changed_statements(old, new), [1, 2]) == [3]


def test_imports_defs_and_continuation_lines_count_by_their_statement() -> None:
    old = "import os\n\n\ndef f(a,\n      b):\n    return a\n"
    new = "import os, sys\n\n\n@staticmethod\ndef f(a,\n      c):\n    return a\n"
    changed = changed_statements(old, new)
    assert [(c.line, c.probe) for c in changed] == [(1, 1), (4, 4), (6, 4)]
    assert not_run(changed, [1, 4, 5]) == []


def test_blank_and_comment_lines_do_not_count() -> None:
    old = "x = 1\n"
    new = "x = 1\n\n# a comment\n"
    assert changed_statements(old, new) == []


def test_code_the_compiler_drops_counts_when_its_function_ran() -> None:
    old = "def f():\n    return 1\n"
    new = "def f():\n    global g\n    return 1\n"
    changed = changed_statements(old, new)
    assert not_run(changed, [1, 3]) == []
    assert not_run(changed, [1]) == [2]


def test_ranges_are_compact() -> None:
    assert ranges([31, 12, 30]) == "12, 30-31"
