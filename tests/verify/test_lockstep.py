"""Lockstep: every optimizer step's gradient and update compared from the original's state.

End to end with the plain-Python runner and the stand-in engine of ``conftest.py``; the
state files and the replay plan are also checked on their own.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from runtime import lockstep, verdict
from runtime.sandbox import Lockstep, python_command
from runtime.step_states import Replay, StateLog, read_array
from runtime.verdict import Options, verify_files

# w follows w <- w - lr * curvature * w: it explodes (factor -1.5), vanishes (factor 0.1) or
# stays flat (factor 1 - 1e-6). b's gradient is small beside w's. A rewrite's one-step
# mistake goes in place of the comment.
TRAINING = """
from fake_engine import Var, sgd
import numpy as np

w = Var("w:0", np.array([0.5, -0.25, 1.0], np.float32))
b = Var("b:0", np.float32(0.5))
for step in range(12):
    grad_w = (np.float32(CURVATURE) * w.value).astype(np.float32)
    grad_b = np.float32(1e-3) * b.value
    # mistake
    sgd([(grad_w, w), (grad_b, b)], 1.0)
print("w", w.numpy(), "b", b.numpy())
"""

CURVATURES = {"explode": 2.5, "vanish": 0.9, "flat": 1e-6}


def training(write_program, name: str, curvature: float, mistake: str = "# mistake") -> Path:
    source = TRAINING.replace("CURVATURE", repr(curvature)).replace("# mistake", mistake)
    return write_program(source, name)


def scaled_at_step_7(var: str) -> str:
    """The gradient of ``var`` at step 7 scaled by 1.001."""
    return f"if step + 1 == 7:\n        grad_{var} = (grad_{var} * np.float32(1.001)).astype(np.float32)"


def verify(old: Path, new: Path, **options) -> verdict.Verdict:
    return verify_files(old, new, Options(timeout=60, attribute=False, **options), runner=python_command)


@pytest.mark.parametrize(("trend", "var"), [("explode", "b"), ("vanish", "w"), ("flat", "w")])
def test_a_one_step_mistake_of_1e3_is_different_at_that_step(write_program, trend: str, var: str) -> None:
    old = training(write_program, "old.py", CURVATURES[trend])
    new = training(write_program, "new.py", CURVATURES[trend], scaled_at_step_7(var))
    found = verify(old, new)
    assert found.status == "different", found.reason
    d = found.divergence
    assert (d.observable, d.step, d.variable) == ("gradient", 7, var)
    assert "in lockstep (both from the original's state before step 7)" in d.detail
    assert d.old_line == d.new_line == (5 if var == "w" else 6)


@pytest.mark.parametrize(("trend", "var"), [("explode", "b"), ("vanish", "w")])
def test_the_free_run_alone_misses_the_mistake(write_program, trend: str, var: str) -> None:
    """Why lockstep exists: its scale-relative tolerance is wide where weights explode or vanish."""
    old = training(write_program, "old.py", CURVATURES[trend])
    new = training(write_program, "new.py", CURVATURES[trend], scaled_at_step_7(var))
    found = verify(old, new, lockstep=False)
    assert found.status == "equivalent", found.reason


def test_float32_rounding_in_lockstep_is_equivalent_and_measured(write_program) -> None:
    old = training(write_program, "old.py", 0.9)
    # the same gradient, computed in another order: (c * w) * 3 / 3 rounds differently
    new = training(write_program, "new.py", 0.9,
                   "grad_w = (grad_w * np.float32(3) / np.float32(3)).astype(np.float32)")
    found = verify(old, new)
    assert found.status == "equivalent", found.reason
    assert "12 steps agree in lockstep (max rel diff: gradient " in found.reason
    rel = float(found.reason.split("gradient ")[-1].split(",")[0])
    assert 0 < rel < 1e-6


def test_an_update_applied_otherwise_is_an_update_difference(write_program) -> None:
    old = training(write_program, "old.py", 0.9)
    source = TRAINING.replace("CURVATURE", "0.9").replace(
        "sgd([(grad_w, w), (grad_b, b)], 1.0)", "sgd([(grad_w, w), (grad_b, b)], 1.01 if step == 4 else 1.0)"
    )
    found = verify(old, write_program(source, "new.py"))
    assert found.status == "different", found.reason
    assert (found.divergence.observable, found.divergence.step) == ("update", 5)
    assert "update of w" in found.divergence.detail


def test_a_change_between_steps_shows_in_the_next_steps_start(write_program) -> None:
    old = training(write_program, "old.py", 1e-6)
    source = TRAINING.replace("CURVATURE", "1e-6").replace(
        "    sgd([(grad_w, w), (grad_b, b)], 1.0)\n",
        "    sgd([(grad_w, w), (grad_b, b)], 1.0)\n"
        "    if step == 3:\n        w.value = (w.value * np.float32(1.0001)).astype(np.float32)\n",
    )
    found = verify(old, write_program(source, "new.py"))
    assert found.status == "different", found.reason
    d = found.divergence
    assert (d.observable, d.step, d.variable) == ("variable", 5, "w")
    assert "value before the step of w" in d.detail


def test_a_variable_lockstep_cannot_set_makes_the_verdict_unverified(write_program) -> None:
    old = training(write_program, "old.py", 0.9)
    source = TRAINING.replace("CURVATURE", "0.9").replace(
        'b = Var("b:0", np.float32(0.5))',
        'class Fixed(Var):\n    _assign_array = None\n\nb = Fixed("b:0", np.float32(0.5))',
    )
    found = verify(old, write_program(source, "new.py"))
    assert found.status == "unverified", found.reason
    assert found.reason == ("the lockstep run of the rewrite could not follow the original: "
                            "b cannot be set to the original's value")


def test_another_step_count_in_lockstep_is_unverified(write_program) -> None:
    old = training(write_program, "old.py", 0.9)
    source = TRAINING.replace("CURVATURE", "0.9").replace(
        "for step in range(12):",
        "import os\nfor step in range(11 if os.environ.get('TFMIGRATE_REPLAY') else 12):",
    )
    found = verify(old, write_program(source, "new.py"))
    assert found.status == "unverified", found.reason
    assert found.reason == "in lockstep the rewrite takes 11 optimizer steps, the original 12"


def test_a_spent_state_budget_is_noted(write_program, monkeypatch) -> None:
    # each step writes 2 x 12 bytes of w, 12 of its gradient, and 3 x 4 of b: 48 bytes
    monkeypatch.setattr(verdict, "Lockstep", functools.partial(Lockstep, limit=48 * 5))
    old = training(write_program, "old.py", 0.9)
    found = verify(old, training(write_program, "new.py", 0.9))
    assert found.status == "equivalent", found.reason
    assert ("lockstep compared optimizer steps 1-5 of 12 (the state budget); the later ones "
            "only in the free run") in found.notes


# w <- 3.9 w (1 - w), the logistic map: chaotic, so a rounding difference doubles every step
# and the free runs part within 30 steps, while each step computes the same from one state.
CHAOTIC = """
from fake_engine import Var, sgd
import numpy as np

w = Var("w:0", np.array([0.2, 0.4, 0.6], np.float32))
for step in range(30):
    grad = (w.value - np.float32(3.9) * w.value * (np.float32(1) - w.value)).astype(np.float32)
    # mistake
    sgd([(grad, w)], 1.0)
    print("step", step, "w", w.numpy())
print("final", w.numpy())
"""


def chaotic(write_program, name: str, mistake: str = "# mistake") -> Path:
    return write_program(CHAOTIC.replace("# mistake", mistake), name)


REORDERED = "grad = (grad * np.float32(3) / np.float32(3)).astype(np.float32)"


def test_rounding_compounded_in_the_free_run_is_equivalent_in_lockstep(write_program) -> None:
    old, new = chaotic(write_program, "old.py"), chaotic(write_program, "new.py", REORDERED)
    free = verify(old, new, lockstep=False)
    assert free.status == "different", free.reason  # the free run alone cannot tell
    found = verify(old, new)
    assert found.status == "equivalent", found.reason
    assert found.reason.startswith("in the lockstep run, 30 optimizer steps")
    assert "30 steps agree in lockstep" in found.reason
    assert "the free run parts at " in found.reason and "float32 rounding compounded" in found.reason


@pytest.mark.parametrize("mistake", [
    # one step 1e-3 off: lockstep names that step
    "if step == 12:\n        grad = (grad * np.float32(1.001)).astype(np.float32)",
    # a print the update does not feed: only the lockstep run's output shows it
    "if step == 20:\n        print('extra', float(w.value[0]) * 1.001)",
])
def test_a_mistake_inside_the_drift_is_different(write_program, mistake: str) -> None:
    old = chaotic(write_program, "old.py")
    new = chaotic(write_program, "new.py", f"{REORDERED}\n    {mistake}")
    found = verify(old, new)
    assert found.status == "different", found.reason


def test_a_printed_value_off_after_training_is_different_despite_the_drift(write_program) -> None:
    old = chaotic(write_program, "old.py")
    source = CHAOTIC.replace("# mistake", REORDERED).replace(
        'print("final", w.numpy())', 'print("final", w.numpy() * np.float32(1.001))')
    found = verify(old, write_program(source, "new.py"))
    assert found.status == "different", found.reason


def test_a_setting_built_otherwise_is_different_despite_the_drift(write_program) -> None:
    """The build comparison runs on drifted runs too: a dropout rate no number shows."""
    built = "from runtime import trace\nfrom runtime.update_rules import build_rule\ntrace.configured(build_rule('dropout', rate={}, seed=None))\n"
    old = write_program(built.format(0.5) + CHAOTIC, "old.py")
    new = write_program(built.format(0.25) + CHAOTIC.replace("# mistake", REORDERED), "new.py")
    found = verify(old, new)
    assert found.status == "different", found.reason
    assert found.divergence.observable == "configuration"


def test_drift_from_the_first_step_on_is_not_excused(write_program) -> None:
    """A rewrite that parts at step 1 differs in what it computes, not in how rounding grew."""
    old = chaotic(write_program, "old.py")
    new = chaotic(write_program, "new.py", "grad = (grad * np.float32(1.0001)).astype(np.float32)")
    found = verify(old, new)
    assert found.status == "different", found.reason


def test_programs_without_optimizer_steps_run_no_lockstep(write_program) -> None:
    old = write_program("print(1.5)\n", "old.py")
    found = verify(old, write_program("print(1.5)\n", "new.py"))
    assert found.status == "equivalent" and "lockstep" not in found.reason


# ------------------------------------------------------------------------ the parts on their own


def test_state_log_writes_whole_steps_until_its_limit(tmp_path: Path) -> None:
    log = StateLog(str(tmp_path / "states"), limit=3 * 8 * 2)
    for step in (1, 2, 3):
        value = np.array([step, -step], np.float32)
        log.before_update(step, [(0, value, value / 2)])
        log.after_update({0: value - 1})
    snapshot = log.snapshot()
    assert (snapshot["steps"], snapshot["truncated_at"]) == (2, 3)
    entry = next(e for e in snapshot["entries"] if e[:3] == [2, 0, "post"])
    assert read_array(str(tmp_path / "states"), entry).tolist() == [1.0, -3.0]


def test_a_scalar_keeps_its_shape(tmp_path: Path) -> None:
    log = StateLog(str(tmp_path / "states"), limit=1000)
    log.before_update(1, [(0, np.float32(2.5), None)])
    log.after_update({0: np.float32(2.0)})
    kinds = {e[2]: e for e in log.snapshot()["entries"]}
    assert set(kinds) == {"pre", "post"} and kinds["post"][5] == []
    assert read_array(str(tmp_path / "states"), kinds["post"]).shape == ()


class _Var:
    def __init__(self, value: list[float]) -> None:
        self.value = np.asarray(value, np.float32)

    def _assign_array(self, value: np.ndarray) -> None:
        self.value = value


def _plan(tmp_path: Path, value: list[float], key: str = "w") -> Path:
    log = StateLog(str(tmp_path / "original"), limit=1000)
    log.before_update(1, [(0, np.zeros(len(value), np.float32), None)])
    log.after_update({0: np.asarray(value, np.float32)})
    entry = next(e for e in log.snapshot()["entries"] if e[2] == "post")
    plan = {"blob": str(tmp_path / "original"), "steps": [[[3, key, entry]]]}
    return lockstep.write_plan(plan, tmp_path / "plan.json")


def test_replay_sets_the_planned_variable(tmp_path: Path) -> None:
    replay, var = Replay(str(_plan(tmp_path, [1.5, 2.5]))), _Var([0.0, 0.0])
    replay.after_update(1, [(3, "w", var, var.value)])
    assert var.value.tolist() == [1.5, 2.5] and replay.snapshot() == {"replayed": 1, "lost": None}
    replay.after_update(2, [(3, "w", var, var.value)])  # past the plan: left alone
    assert replay.snapshot()["replayed"] == 1


def test_replay_of_other_variables_ends_and_says_why(tmp_path: Path) -> None:
    replay, var = Replay(str(_plan(tmp_path, [1.5, 2.5])), ), _Var([0.0, 0.0])
    replay.after_update(1, [(4, "v", var, var.value)])
    assert var.value.tolist() == [0.0, 0.0]
    assert replay.snapshot()["lost"] == {"step": 1, "why": "step 1 updates v; its free run updated w"}


def _trace(names_shapes: list[tuple[str, list[int]]], stepped: list[int]) -> dict:
    variables = [
        {"var": name, "index": i, "trainable": True, "line": 1, "callers": [],
         "value": {"shape": shape, "dtype": "float32", "values": [0.0] * int(np.prod(shape))}}
        for i, (name, shape) in enumerate(names_shapes)
    ]
    grads = [{"var": names_shapes[i][0], "index": i, "grad": None} for i in stepped]
    return {"variables": variables, "steps": [{"line": 2, "grads": grads}]}


def test_plan_names_an_unpaired_variable(tmp_path: Path) -> None:
    old = _trace([("w", [2])], [0]) | {"states": {"entries": [[1, 0, "post", 0, "<f4", [2]]], "steps": 1}}
    new = _trace([("w", [2]), ("extra", [3])], [0, 1])
    plan, why = lockstep.plan_replay(old, tmp_path / "states", new)
    assert plan is None and why == "extra, which the rewrite updates at step 1, has no counterpart"


def test_plan_pairs_by_name_and_points_at_the_originals_value(tmp_path: Path) -> None:
    old = _trace([("w", [2])], [0]) | {"states": {"entries": [[1, 0, "post", 8, "<f4", [2]]], "steps": 1}}
    plan, why = lockstep.plan_replay(old, tmp_path / "states", _trace([("model/w", [2])], [0]))
    assert why is None
    assert json.loads(json.dumps(plan)) == {
        "blob": str(tmp_path / "states"), "steps": [[[0, "model/w", [1, 0, "post", 8, "<f4", [2]]]]]
    }


def test_a_step_larger_than_the_state_budget_runs_no_lockstep_and_says_so(write_program, monkeypatch) -> None:
    monkeypatch.setattr(verdict, "Lockstep", functools.partial(Lockstep, limit=40))
    old = training(write_program, "old.py", 0.9)
    found = verify(old, training(write_program, "new.py", 0.9))
    assert found.status == "equivalent" and "lockstep" not in found.reason
    assert ("no step compared in lockstep: one step's state is larger than the state budget; "
            "the steps are compared in the free run only") in found.notes


# ------------------------------------------------------------------- replay on the engine itself

KERAS_STEPS = """import numpy as np
import tensorflow as tf
w = tf.Variable([1.0, 2.0], name="w")
optimizer = tf.keras.optimizers.SGD(0.5)

@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

for _ in range(3):
    step()
print(w.numpy())
"""

TF1_STEPS = """import tensorflow as tf
w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
train = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(w * w))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train)
    print(sess.run(w))
"""


@pytest.mark.parametrize("source", [KERAS_STEPS, TF1_STEPS], ids=["keras_function", "tf1_session"])
def test_the_engine_takes_the_replayed_values_into_the_next_step(tmp_path: Path, source: str) -> None:
    original = tmp_path / "original.states"
    log = StateLog(str(original), limit=10_000)
    for step, value in enumerate([[10.0, 20.0], [3.0, 4.0], [7.0, 8.0]], 1):
        log.before_update(step, [(0, np.zeros(2, np.float32), None)])
        log.after_update({0: np.asarray(value, np.float32)})
    posts = [e for e in log.snapshot()["entries"] if e[2] == "post"]
    plan = lockstep.write_plan({"blob": str(original), "steps": [[[0, "w", e]] for e in posts]},
                               tmp_path / "plan.json")
    program, trace_path, states = tmp_path / "prog.py", tmp_path / "trace.json", tmp_path / "own.states"
    program.write_text(source)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]),
               TFMIGRATE_TRACE=str(trace_path), TFMIGRATE_PROGRAM=str(program),
               **Lockstep(states, replay=plan).environment())
    run = subprocess.run([sys.executable, "-m", "runtime.run", str(program)], env=env, text=True,
                         capture_output=True, timeout=120, check=True, cwd=tmp_path)
    assert run.stdout.split() == ["[7.", "8.]"]
    recorded = json.loads(trace_path.read_text())
    assert recorded["replay"] == {"replayed": 3, "lost": None}
    pre = {e[0]: read_array(str(states), e).tolist() for e in recorded["states"]["entries"] if e[2] == "pre"}
    grad = {e[0]: read_array(str(states), e).tolist() for e in recorded["states"]["entries"] if e[2] == "grad"}
    assert pre == {1: [1.0, 2.0], 2: [10.0, 20.0], 3: [3.0, 4.0]}
    assert grad[2] == [20.0, 40.0]  # d(sum w^2)/dw at the replayed value


def test_plan_names_a_counterpart_of_another_shape(tmp_path: Path) -> None:
    old = _trace([("w", [2])], [0]) | {"states": {"entries": [[1, 0, "post", 0, "<f4", [3]]], "steps": 1}}
    plan, why = lockstep.plan_replay(old, tmp_path / "states", _trace([("w", [2])], [0]))
    assert plan is None and why == "w has shape (2,), its counterpart (3,)"


def test_plan_needs_the_originals_states(tmp_path: Path) -> None:
    plan, why = lockstep.plan_replay(_trace([("w", [2])], [0]), tmp_path / "states", _trace([("w", [2])], [0]))
    assert plan is None and why == "the original's run recorded no state"
