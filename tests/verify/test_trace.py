"""The recorder the engine calls: budget, source lines, digests, robustness."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from runtime import trace


class Var:
    def __init__(self, name: str, value: object, trainable: bool = True) -> None:
        self.name = name
        self.value = np.asarray(value, np.float32)
        self.trainable = trainable

    def numpy(self) -> np.ndarray:
        return self.value


class Unreadable(Var):
    def numpy(self) -> np.ndarray:
        raise RuntimeError("session closed")


def test_inactive_recorder_records_nothing() -> None:
    recorder = trace.Recorder(None, None)
    recorder.variable_created(Var("w:0", 1.0))
    recorder.optimizer_step([(1.0, Var("w:0", 1.0))])
    assert recorder.variables == [] and recorder.steps == []


def test_budget_stops_before_the_extra_step_and_run_main_ends_cleanly() -> None:
    recorder = trace.Recorder(None, 2)
    w = Var("w:0", 1.0)
    applied = []

    def program() -> None:
        for i in range(10):
            recorder.optimizer_step([(1.0, w)])
            applied.append(i)

    with pytest.raises(trace.StopProgram):
        program()
    assert applied == [0, 1] and recorder.stopped_early
    assert issubclass(trace.StopProgram, BaseException)
    assert not issubclass(trace.StopProgram, Exception)


def test_run_main_swallows_only_stop_program(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = trace.Recorder(None, 0)
    monkeypatch.setattr(trace, "recorder", recorder)
    trace.run_main(lambda: recorder.optimizer_step([]))
    assert recorder.stopped_early
    with pytest.raises(ValueError):
        trace.run_main(lambda: (_ for _ in ()).throw(ValueError("boom")))


def make_variable(recorder: trace.Recorder) -> Var:
    var = Var("made:0", 1.0)
    recorder.variable_created(var)
    return var


def test_creation_line_is_the_user_programs_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(trace.PROGRAM_ENV, __file__)
    recorder = trace.Recorder("unused.json", None)
    make_variable(recorder)  # the innermost frame in this file is inside make_variable
    expected = make_variable.__code__.co_firstlineno + 2
    assert recorder.snapshot()["variables"][0]["line"] == expected


def build_layer(recorder: trace.Recorder) -> Var:
    return make_variable(recorder)


def test_creation_records_the_program_lines_that_called_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(trace.PROGRAM_ENV, __file__)
    recorder = trace.Recorder("unused.json", None)
    build_layer(recorder)
    variable = recorder.snapshot()["variables"][0]
    assert variable["line"] == make_variable.__code__.co_firstlineno + 2
    assert variable["callers"][0] == build_layer.__code__.co_firstlineno + 1


def test_no_line_when_the_program_is_not_on_the_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(trace.PROGRAM_ENV, "/nowhere/prog.py")
    recorder = trace.Recorder("unused.json", None)
    make_variable(recorder)
    variable = recorder.snapshot()["variables"][0]
    assert variable["line"] is None and variable["callers"] == []


def test_snapshot_keys_grads_by_creation_index_and_registers_unknown_variables() -> None:
    recorder = trace.Recorder("unused.json", None)
    w, b, late = Var("dense/w:0", [1.0, 2.0]), Var("dense/b:0", 0.0), Var("late:0", 3.0)
    recorder.variable_created(w)
    recorder.variable_created(b)
    recorder.variable_created(w)  # reported twice: kept once
    recorder.optimizer_step([(np.array([0.5, 0.5]), w), (None, late)])
    snap = recorder.snapshot()
    assert [v["var"] for v in snap["variables"]] == ["dense/w", "dense/b", "late"]
    grads = snap["steps"][0]["grads"]
    assert [(g["var"], g["index"]) for g in grads] == [("dense/w", 0), ("late", 2)]
    assert grads[0]["grad"]["values"] == [0.5, 0.5] and grads[1]["grad"] is None


def test_keras_path_is_preferred_over_the_tf_name() -> None:
    class KerasVar(Var):
        path = "dense1/weight"

    assert trace.variable_key(KerasVar("weight:0", 1.0)) == "dense1/weight"
    assert trace.variable_key(Var("a:0", 1.0)) == "a"


def test_small_tensors_are_recorded_whole_large_ones_as_a_digest() -> None:
    small = trace.record_array(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert small == {"shape": [2, 3], "dtype": "float32", "values": [0, 1, 2, 3, 4, 5]}
    big = np.arange(trace.FULL_VALUES_LIMIT + 1, dtype=np.float64) - 10
    digest = trace.record_array(big)
    assert len(digest["values"]) == trace.SAMPLE_SIZE == len(digest["positions"])
    assert digest["values"][0] == -10 and digest["positions"][-1] == big.size - 1
    assert digest["l1"] == pytest.approx(np.abs(big).sum())
    assert digest["max_abs"] == big.size - 11


def test_an_unreadable_variable_does_not_lose_the_trace(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    recorder = trace.Recorder(str(path), None)
    recorder.variable_created(Unreadable("gone:0", 1.0))
    recorder.variable_created(Var("kept:0", 2.0, trainable=False))
    recorder.write()
    written = json.loads(path.read_text())
    assert written["variables"][0]["value"] is None
    assert written["variables"][1]["value"]["values"] == [2.0]
    assert written["variables"][1]["trainable"] is False


def test_a_step_on_the_variable_behind_a_reported_wrapper_finds_its_creation() -> None:
    class Wrapper:
        def __init__(self, var: Var) -> None:
            self.var, self.name = var, var.name

        def numpy(self) -> np.ndarray:
            return self.var.numpy()

    recorder = trace.Recorder("unused.json", None)
    w = Var("w:0", [1.0])
    recorder.variable_created(Wrapper(w), line=7)
    recorder.optimizer_step([(np.ones(1), w)])
    snap = recorder.snapshot()
    assert len(snap["variables"]) == 1 and snap["variables"][0]["line"] == 7
    assert snap["steps"][0]["grads"][0]["index"] == 0


def test_a_step_finds_the_creation_of_its_variable_among_others_of_the_same_name() -> None:
    class Wrapper:
        def __init__(self, var: Var) -> None:
            self.var, self.name = var, var.name

        def numpy(self) -> np.ndarray:
            return self.var.numpy()

    recorder = trace.Recorder("unused.json", None)
    first, second = Var("Variable:0", [1.0]), Var("Variable:0", [2.0])  # TF2: unnamed
    recorder.variable_created(Wrapper(first))
    recorder.variable_created(Wrapper(second))
    recorder.optimizer_step([(np.ones(1), first), (np.ones(1), second)])
    grads = recorder.snapshot()["steps"][0]["grads"]
    assert [g["index"] for g in grads] == [0, 1]


def test_value_before_the_first_update_is_kept() -> None:
    recorder = trace.Recorder("unused.json", None)
    w = Var("w:0", [1.0, 2.0])
    recorder.variable_created(w)
    for _ in range(2):
        recorder.optimizer_step([(np.ones(2), w)])
        w.value = w.value - 1
    variable = recorder.snapshot()["variables"][0]
    assert variable["initial"]["values"] == [1.0, 2.0]
    assert variable["value"]["values"] == [-1.0, 0.0]
