"""``--max-steps`` ends training, not the program: what runs after the training loops is compared.

Plain-Python programs on the fake engine (``conftest.FAKE_ENGINE``), run through the sandbox's
bootstrap, which cuts the program's loops the way the engine's runner does.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from runtime.sandbox import python_command, run_program
from runtime.step_budget import HOOK, instrument
from runtime.verdict import Options, verify_files

# Trains on one split for 200 steps, then evaluates; EVALUATION is what a rewrite may get wrong.
TRAIN_THEN_EVALUATE = """
import numpy as np
from fake_engine import Var, sgd

rng = np.random.RandomState(0)
x_train, x_test = rng.rand(40).astype(np.float32), rng.rand(10).astype(np.float32)
y_train, y_test = 3 * x_train + 1, 3 * x_test + 1
w = Var("w:0", [0.0, 0.0])


def loss(x, y):
    return float(np.mean((w.value[0] * x + w.value[1] - y) ** 2))


for step in range(200):
    err = w.value[0] * x_train + w.value[1] - y_train
    last_loss = loss(x_train, y_train)
    sgd([(np.array([np.mean(err * x_train), np.mean(err)], np.float32), w)], 0.1)
EVALUATION
"""

CORRECT = """
metrics = {"train": loss(x_train, y_train), "test": loss(x_test, y_test)}
print("train %.6f test %.6f" % (metrics["train"], metrics["test"]))
print("final loss", loss(x_train, y_train))
"""

OTHER_CORRECT = """
train_loss, test_loss = loss(x_train, y_train), loss(x_test, y_test)
print("train %.6f test %.6f" % (train_loss, test_loss))
print("final loss", loss(x_train, y_train))
"""

MISTAKES = {
    "evaluates on the training split": CORRECT.replace(
        '"test": loss(x_test, y_test)', '"test": loss(x_train, y_train)'
    ),
    "swaps two keys of the evaluation dict": CORRECT.replace(
        '(metrics["train"], metrics["test"])', '(metrics["test"], metrics["train"])'
    ),
    "prints the loss from before the last update": CORRECT.replace(
        'print("final loss", loss(x_train, y_train))', 'print("final loss", last_loss)'
    ),
}


def verify(old: Path, new: Path, **options: object):
    return verify_files(old, new, Options(timeout=60, **options), runner=python_command)


def run(program: Path, max_steps: int | None = None):
    return run_program(program, max_steps=max_steps, runner=python_command, timeout=60)


def training_program(write_program, name: str, evaluation: str) -> Path:
    return write_program(TRAIN_THEN_EVALUATE.replace("EVALUATION", evaluation.strip()), name)


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_mistake_after_training_is_different_under_max_steps(write_program, mistake) -> None:
    old = training_program(write_program, "old.py", CORRECT)
    new = training_program(write_program, "new.py", MISTAKES[mistake])
    verdict = verify(old, new, max_steps=50, attribute=False)
    assert verdict.status == "different", verdict.reason
    d = verdict.divergence
    assert (d.observable, d.step) == ("stdout", 50), verdict.reason


def test_a_correct_rewrite_is_equivalent_under_max_steps(write_program) -> None:
    old = training_program(write_program, "old.py", CORRECT)
    # The same training as a while loop, and the same evaluation written another way.
    new_source = TRAIN_THEN_EVALUATE.replace(
        "for step in range(200):", "step = 0\nwhile step < 200:\n    step += 1"
    ).replace("EVALUATION", OTHER_CORRECT.strip())
    new = write_program(new_source, "new.py")
    verdict = verify(old, new, max_steps=50)
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.steps_compared == 50
    assert "3 printed numbers agree" in verdict.reason
    (note,) = [n for n in verdict.notes if "step budget" in n]
    assert note == (
        "training stopped after 50 optimizer steps (the step budget): loops ended at original "
        "line 15, rewrite line 16; the code after them ran and is compared"
    )


def test_training_is_cut_after_the_budget_and_the_rest_runs(write_program) -> None:
    program = training_program(write_program, "prog.py", CORRECT)
    result = run(program, max_steps=50)
    assert result.exit_code == 0, result.stderr
    assert len(result.trace["steps"]) == 50
    assert result.stopped_early and result.trace["cut_loops"] == [15]
    assert result.stdout.startswith("train ") and "final loss" in result.stdout


def test_an_evaluation_loop_without_steps_runs_to_its_end(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for step in range(100):
            sgd([(1.0, w)], 0.125)
        for batch in range(7):
            print("eval batch", batch, w.numpy())
        n = 0
        while n < 3:
            n += 1
        print("done", n)
    """)
    result = run(program, max_steps=5)
    lines = result.stdout.splitlines()
    assert lines[:7] == [f"eval batch {b} 0.375" for b in range(7)]
    assert lines[7:] == ["done 3"]
    assert result.trace["cut_loops"] == [4]


def test_nested_training_loops_both_exit(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for epoch in range(10):
            for batch in range(4):
                sgd([(1.0, w)], 0.01)
            print("epoch", epoch)
        print("trained", round(float(w.numpy()), 4))
    """)
    result = run(program, max_steps=6)  # the budget runs out in the second epoch's batches
    assert len(result.trace["steps"]) == 6
    assert result.trace["cut_loops"] == [5, 4]  # the batch loop, then the epoch loop
    assert result.stdout.splitlines() == ["epoch 0", "epoch 1", "trained 0.94"]


def test_a_while_true_training_loop_exits(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        step = 0
        while True:
            sgd([(1.0, w)], 0.01)
            step += 1
            if step == 1000:
                break
        print("steps", step)
    """)
    result = run(program, max_steps=8)
    assert result.stdout == "steps 8\n" and result.trace["cut_loops"] == [5]


def test_training_in_a_function_is_cut_and_its_caller_goes_on(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)

        def train(epochs):
            for _ in range(epochs):
                sgd([(1.0, w)], 0.125)
            return "trained"

        for lr_phase in range(3):  # a step ran since it started: it ends too
            print(lr_phase, train(10))
        print("after", w.numpy())
    """)
    result = run(program, max_steps=4)
    assert result.stdout.splitlines() == ["0 trained", "after 0.5"]


def test_a_loop_started_after_the_budget_runs_one_iteration(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for step in range(100):
            sgd([(1.0, w)], 0.5)
        for step in range(100):  # fine-tuning: its first step runs, then it ends
            sgd([(1.0, w)], 0.25)
        print(w.numpy())
    """)
    result = run(program, max_steps=2)
    assert len(result.trace["steps"]) == 3 and result.trace["stopped"] is None
    assert result.stdout == "-0.25\n"


def test_steps_taken_in_a_comprehension_stop_the_program_and_the_verdict_says_so(
    write_program,
) -> None:
    source = """
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        losses = [sgd([(1.0, w)], 0.01) for _ in range(100)]
        print("final", w.numpy())
    """
    old, new = write_program(source, "old.py"), write_program(source, "new.py")
    result = run(old, max_steps=5)
    assert len(result.trace["steps"]) == 5 and result.stdout == ""
    assert result.trace["stopped"] == {"step": 6, "line": 4}
    verdict = verify(old, new, max_steps=5)
    assert verdict.status == "unverified" and verdict.exit_code == 3, verdict.reason
    assert verdict.reason == (
        "the step budget stopped both programs at optimizer step 6 (original line 4, rewrite "
        "line 4), in a loop it cannot end: the code after it did not run"
    )


def test_steps_from_an_imported_module_loop_stop_the_program(write_program, tmp_path) -> None:
    (tmp_path / "trainer.py").write_text(textwrap.dedent("""
        from fake_engine import sgd

        def fit(w, steps):
            for _ in range(steps):
                sgd([(1.0, w)], 0.01)
    """))
    program = write_program("""
        from fake_engine import Var
        import trainer
        w = Var("w:0", 1.0)
        trainer.fit(w, 100)
        print("final", w.numpy())
    """)
    result = run(program, max_steps=5)
    assert len(result.trace["steps"]) == 5 and result.stdout == ""
    assert result.trace["stopped"] == {"step": 6, "line": 5}


def test_only_one_program_stopped_is_unverified_not_different(write_program) -> None:
    old = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for _ in range(100):
            sgd([(1.0, w)], 0.01)
        print("final", w.numpy())
    """, "old.py")
    new = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        steps = [sgd([(1.0, w)], 0.01) for _ in range(100)]
        print("final", w.numpy())
    """, "new.py")
    assert verify(old, new).status == "equivalent"
    verdict = verify(old, new, max_steps=5)
    assert verdict.status == "unverified", verdict.reason
    assert verdict.reason == (
        "the step budget stopped the rewrite at optimizer step 6 (line 4), in a loop it "
        "cannot end: the code after it did not run"
    )


def test_loops_that_let_different_step_counts_past_the_budget_are_unverified(
    write_program,
) -> None:
    old = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for _ in range(100):
            sgd([(1.0, w)], 0.01)
        print("final", w.numpy())
    """, "old.py")
    new = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for _ in range(50):  # the same 100 steps, two per iteration
            sgd([(1.0, w)], 0.01)
            sgd([(1.0, w)], 0.01)
        print("final", w.numpy())
    """, "new.py")
    assert verify(old, new).status == "equivalent"
    assert verify(old, new, max_steps=4).status == "equivalent"
    verdict = verify(old, new, max_steps=5)
    assert verdict.status == "unverified", verdict.reason
    assert verdict.reason.startswith(
        "the step budget ended training after 5 optimizer steps in the original and 6 in the "
        "rewrite"
    )


def test_a_wrong_step_is_different_whatever_the_budget_cut(write_program) -> None:
    old = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for _ in range(100):
            sgd([(1.0, w)], 0.01)
    """, "old.py")
    new = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        steps = [sgd([(2.0, w)], 0.01) for _ in range(100)]
    """, "new.py")
    verdict = verify(old, new, max_steps=5)
    assert verdict.status == "different", verdict.reason
    assert (verdict.divergence.observable, verdict.divergence.step) == ("gradient", 1)


def test_tracebacks_name_the_programs_own_lines(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for step in range(100):
            sgd([(1.0, w)], 0.01)

        for batch in range(3):
            if batch == 2:
                raise ValueError("evaluation failed")
    """)
    result = run(program, max_steps=5)
    assert result.exception == "ValueError" and result.exception_line == 9
    assert 'prog.py", line 9' in result.stderr


def cut(source: str) -> str:
    return ast.unparse(instrument(ast.parse(textwrap.dedent(source))))


def test_loops_that_can_pause_or_live_in_a_class_body_are_left_alone() -> None:
    source = """
        def batches():
            for i in range(3):
                yield i

        async def serve():
            while True:
                pass

        class Model:
            for name in ("a", "b"):
                pass

            def fit(self):
                for step in range(3):
                    pass
    """
    instrumented = cut(source)
    assert instrumented.count(f"{HOOK}.loop_cut") == 1  # Model.fit's loop only
    assert "def fit(self):\n        __tfmigrate_loop_0__ = " in instrumented


def test_the_check_sits_on_the_loops_own_line() -> None:
    tree = instrument(ast.parse("x = 0\nfor i in range(3):\n    x += i\n"))
    record, loop = tree.body[1], tree.body[2]
    check = loop.body[0]
    assert {node.lineno for node in ast.walk(record) if hasattr(node, "lineno")} == {2}
    assert {node.lineno for node in ast.walk(check) if hasattr(node, "lineno")} == {2}
    assert loop.body[1].lineno == 3


def test_hidden_names_depend_only_on_how_deep_a_loop_is() -> None:
    instrumented = cut("""
        for a in x:
            pass
        def f():
            for b in y:
                for c in z:
                    pass
        for d in w:
            for e in v:
                pass
    """)
    names = set(re.findall(r"__tfmigrate_loop_\d+__", instrumented))
    assert names == {"__tfmigrate_loop_0__", "__tfmigrate_loop_1__"}


def test_code_after_training_that_needs_more_steps_fails_alike_and_is_unverified(
    write_program,
) -> None:
    source = """
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for step in range(200):
            sgd([(1.0, w)], 0.01)
            if step == 99:
                saved = w.numpy().copy()
        print("restored", saved)
    """
    old, new = write_program(source, "old.py"), write_program(source, "new.py")
    assert verify(old, new).status == "equivalent"
    verdict = verify(old, new, max_steps=50)
    assert verdict.status == "unverified", verdict.reason
    assert verdict.reason == (
        "neither program ran to the end: both raise NameError at original line 8 / rewrite "
        "line 8, after the step budget ended their training (50 steps)"
    )


# A progress print past the first budget: under 50 steps the rewrite's changed line never runs.
PROGRESS = "    if step == WHEN:\n        print('progress', PRINTED)\n"


def with_progress(write_program, name: str, when: int, printed: str) -> Path:
    source = TRAIN_THEN_EVALUATE.replace("EVALUATION", CORRECT.strip()).replace(
        "    sgd(", PROGRESS.replace("WHEN", str(when)).replace("PRINTED", printed) + "    sgd(")
    return write_program(source, name)


def test_lines_past_the_budget_are_reached_by_a_larger_budget(write_program) -> None:
    old = with_progress(write_program, "old.py", 120, "loss(x_train, y_train)")
    new = with_progress(write_program, "new.py", 120, "float(loss(x_train, y_train))")
    verdict = verify(old, new, max_steps=50)
    assert verdict.status == "equivalent", verdict.reason
    assert verdict.steps_compared == 200
    assert ("the step budget grew from 50 to 200 optimizer steps: under 50, changed line 19 of "
            "the rewrite never ran") in verdict.notes


def test_a_mistake_past_the_budget_is_different(write_program) -> None:
    old = with_progress(write_program, "old.py", 120, "loss(x_train, y_train)")
    new = with_progress(write_program, "new.py", 120, "2 * loss(x_train, y_train)")
    verdict = verify(old, new, max_steps=50, attribute=False)
    assert verdict.status == "different", verdict.reason
    assert verdict.divergence.observable == "stdout"


def test_lines_no_budget_reaches_stay_unverified(write_program) -> None:
    old = with_progress(write_program, "old.py", 10**6, "loss(x_train, y_train)")
    new = with_progress(write_program, "new.py", 10**6, "2 * loss(x_train, y_train)")
    verdict = verify(old, new, max_steps=10)
    assert verdict.status == "unverified", verdict.reason
    assert verdict.not_run == [19]
    grew = "the step budget grew from {} to {} optimizer steps: under {}, changed line 19 of the rewrite never ran"
    assert [n for n in verdict.notes if "grew" in n] == [grew.format(10, 40, 10), grew.format(40, 160, 40)]


def test_lines_outside_the_cut_loops_are_not_retried(write_program) -> None:
    """A function nothing calls runs under no budget: verify does not try larger ones."""
    unused = "\ndef unused():\n    return LOSS\n"
    old = write_program(TRAIN_THEN_EVALUATE.replace("EVALUATION", CORRECT.strip() + unused.replace("LOSS", "1")),
                        "old.py")
    new = write_program(TRAIN_THEN_EVALUATE.replace("EVALUATION", CORRECT.strip() + unused.replace("LOSS", "2")),
                        "new.py")
    verdict = verify(old, new, max_steps=10)
    assert verdict.status == "unverified" and len(verdict.not_run) == 1, verdict.reason
    assert not [n for n in verdict.notes if "grew" in n]
