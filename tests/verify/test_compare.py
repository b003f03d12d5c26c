"""Trace comparison on hand-built runs: each observable, the order, name fallback, exits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime.compare import compare_runs
from runtime.observables import Tolerance
from runtime.printed_output import with_reprints
from runtime.sandbox import RunResult
from runtime.trace import record_array
from runtime.variable_pairs import model_variables, pair_variables

TOL = Tolerance(rtol=1e-4, atol=1e-6)


def var(
    name: str,
    index: int,
    value: Any,
    *,
    trainable: bool = True,
    line: int | None = None,
    offset: int | None = 0,
    callers: tuple[int, ...] = (),
) -> dict[str, Any]:
    return {
        "var": name,
        "index": index,
        "trainable": trainable,
        "line": line,
        "callers": list(callers),
        "stdout_offset": offset,
        "value": record_array(np.asarray(value, np.float32)),
    }


def step(
    *grads: tuple[str, int, Any], offset: int | None = None, line: int | None = None
) -> dict[str, Any]:
    return {
        "line": line,
        "stdout_offset": offset,
        "grads": [
            {
                "var": n,
                "index": i,
                "grad": None if g is None else record_array(np.asarray(g, np.float32)),
            }
            for n, i, g in grads
        ],
    }


def run(
    stdout: str = "",
    variables: list | None = None,
    steps: list | None = None,
    *,
    exit_code: int = 0,
    exception: str | None = None,
    raised_at: int | None = None,
    stopped: bool = False,
    traced: bool = True,
) -> RunResult:
    trace = {
        "format": 1,
        "stopped_early": stopped,
        "max_steps": None,
        "steps": steps or [],
        "variables": variables or [],
    }
    return RunResult(
        stdout=stdout,
        stderr="",
        exit_code=exit_code,
        exception=exception,
        trace=trace if traced else None,
        timed_out=False,
        exception_message="boom" if exception else None,
        exception_line=raised_at,
    )


def two_var_run(
    w_grads: list[Any],
    w_final: Any,
    stdout: str = "",
    names=("w", "b"),
    lines=(3, 4),
    offsets: list[int | None] | None = None,
) -> RunResult:
    offsets = offsets or [None] * len(w_grads)
    variables = [var(names[0], 0, w_final, line=lines[0]), var(names[1], 1, 0.5, line=lines[1])]
    steps = [step((names[0], 0, g), (names[1], 1, 1.0), offset=o) for g, o in zip(w_grads, offsets)]
    return run(stdout, variables, steps)


def test_identical_runs_have_no_divergence() -> None:
    old = two_var_run([[1.0, 2.0]] * 3, [0.1, 0.2], "loss 0.5\n")
    result = compare_runs(old, old, TOL)
    assert result.divergence is None
    assert result.steps_compared == 3
    assert result.max_abs_diff == 0.0


def test_adam_sized_drift_is_equivalent_and_measured() -> None:
    old = two_var_run([[1.0, 2.0]], [0.1, 0.2])
    new = two_var_run([[1.0 + 2e-5, 2.0]], [0.1, 0.2])
    result = compare_runs(old, new, TOL)
    assert result.divergence is None
    assert 1e-5 < result.max_rel_diff < 3e-5


def test_wrong_epsilon_sized_gradient_difference_is_found_at_its_step() -> None:
    grads = [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]
    old = two_var_run(grads, [0.1, 0.2], lines=(3, 4))
    new = two_var_run(grads[:2] + [[1.0, 2.0 * (1 + 7e-3)]], [0.1, 0.2], lines=(10, 11))
    d = compare_runs(old, new, TOL).divergence
    assert d is not None
    assert (d.observable, d.step, d.variable) == ("gradient", 3, "w")
    assert (d.old, d.old_line, d.new_line) == (2.0, 3, 10)
    assert d.new == np.float32(2.0 * (1 + 7e-3))
    assert "(1,)" in d.detail


def test_a_changed_initial_value_is_named_before_the_gradient_it_changes() -> None:
    old = two_var_run([[1.0, 2.0]] * 2, [0.1, 0.2], lines=(3, 4), offsets=[0, 0])
    new = two_var_run([[1.0, 2.5]] * 2, [0.1, 0.2], lines=(8, 9), offsets=[0, 0])
    old.trace["variables"][0]["initial"] = record_array(np.float32([0.5, 1.0]))
    new.trace["variables"][0]["initial"] = record_array(np.float32([0.5, 1.25]))
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.step, d.variable, d.old, d.new) == ("variable", 1, "w", 1.0, 1.25)
    assert (d.old_line, d.new_line) == (3, 8)
    assert d.detail.startswith("value before its first update")


def test_tensor_elements_near_zero_are_judged_against_the_tensors_scale() -> None:
    # a correct Adam rewrite: a small gradient element drifts by 2e-4 of itself
    old = two_var_run([[1.0, 0.016]], [0.1, 0.2])
    new = two_var_run([[1.0, 0.016003]], [0.1, 0.2])
    result = compare_runs(old, new, TOL)
    assert result.divergence is None
    assert result.max_rel_diff == pytest.approx(3e-6, rel=1e-2)

    # the same drift in a gradient vector that is all small is a difference
    def small(grad: list[float]) -> RunResult:
        return run("", [var("w", 0, [0.1, 0.2])], [step(("w", 0, grad))])

    d = compare_runs(small([0.01, 0.016]), small([0.01, 0.016003]), TOL).divergence
    assert (d.observable, d.step) == ("gradient", 1)


def test_a_bias_gradient_is_judged_against_its_steps_gradient_vector() -> None:
    # one step updates w and b: b's 2e-5 is 2e-5 of the step's scale (w's 1.0)
    old = two_var_run([[1.0, 2.0]], [0.1, 0.2])
    new = run("", old.trace["variables"], [step(("w", 0, [1.0, 2.0]), ("b", 1, 1.0 + 2e-5))])
    assert compare_runs(old, new, TOL).divergence is None
    # and past the step's scale it is a difference in b
    new = run("", old.trace["variables"], [step(("w", 0, [1.0, 2.0]), ("b", 1, 1.0 + 1e-3))])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.step, d.variable) == ("gradient", 1, "b")


def many_steps(late: float, steps: int) -> RunResult:
    """``steps`` steps of one variable with gradient ``[1, 2]``, the last one's scaled by ``late``."""
    grads = [[1.0, 2.0]] * (steps - 1) + [[1.0, 2.0 * late]]
    return run("", [var("w", 0, [0.1, 0.2])], [step(("w", 0, g)) for g in grads])


@pytest.mark.parametrize(
    ("relative", "steps", "equivalent"),
    [
        (2e-4, 1, False),  # 2e-4 at once: twice the base tolerance
        (2e-4, 10, False),  # still within the drift-free steps
        (2e-4, 200, True),  # after 199 steps: sqrt(19.9) x 1e-4 allowed
        (1e-3, 200, False),
        (1e-3, 100_000, False),  # the allowance stops growing at 5x
    ],
)
def test_rounding_drift_allowance_grows_with_the_steps_taken(
    relative: float, steps: int, equivalent: bool
) -> None:
    old = many_steps(1.0, steps)
    d = compare_runs(old, many_steps(1.0 + relative, steps), TOL).divergence
    assert (d is None) is equivalent
    if not equivalent:
        assert (d.observable, d.step) == ("gradient", steps)


def test_late_printed_numbers_get_the_drift_allowance_of_the_steps_before_them() -> None:
    steps = [step(("w", 0, [1.0, 2.0]), offset=0)] * 200
    variables = [var("w", 0, [0.1, 0.2])]
    old = run("loss 0.5\n", variables, steps)
    drifted = [var("w", 0, [0.1, 0.2 + 1e-7])]  # the states parted by rounding
    # printed after 200 steps, 2e-4 off: within sqrt(20) x 1e-4
    assert compare_runs(old, run("loss 0.5001\n", drifted, steps), TOL).divergence is None
    # printed before any step, the same difference is one
    d = compare_runs(run("loss 0.5\n", drifted), run("loss 0.5001\n", variables), TOL).divergence
    assert d is not None and d.observable == "stdout"


def test_printed_numbers_from_states_that_never_parted_get_no_drift_allowance() -> None:
    # Every gradient and variable bitwise equal: a loss 2e-4 off after 200 steps comes from
    # what only the evaluation computes (an activation dropped there), not from rounding.
    steps = [step(("w", 0, [1.0, 2.0]), offset=0)] * 200
    variables = [var("w", 0, [0.1, 0.2])]
    d = compare_runs(run("loss 0.5\n", variables, steps), run("loss 0.5001\n", variables, steps), TOL).divergence
    assert d is not None and d.observable == "stdout" and "output differs" in d.detail


def adam_run(late_grad: Any, w_final: Any, b_final: float) -> RunResult:
    """Two steps of a kernel ``w`` and a bias ``b``: large early gradients, small late ones."""
    variables = [var("w", 0, w_final, line=3), var("b", 1, b_final, line=4)]
    steps = [step(("w", 0, [1.0, 2.0]), ("b", 1, 0.5)), step(("w", 0, late_grad), ("b", 1, 1e-3))]
    return run("", variables, steps)


def test_adam_kind_drift_is_judged_against_the_observables_scale() -> None:
    # A correct Adam rewrite near convergence: gradients of scale 0.01 are 3e-6 off
    # (3e-4 of themselves, 1.5e-6 of the gradient's scale in step 1), and a bias
    # that ends near zero is as far off as the kernel (5e-6, 1e-5 of the parameters).
    old = adam_run([0.01, 0.016], [0.5, -0.25], 0.002)
    new = adam_run([0.01 + 3e-6, 0.016 - 3e-6], [0.5 + 5e-6, -0.25], 0.002 + 5e-6)
    result = compare_runs(old, new, TOL)
    assert result.divergence is None, result.divergence
    assert result.max_rel_diff < 2e-5


@pytest.mark.parametrize(
    ("w_final", "b_final", "variable"),
    [
        ([0.5, -0.25 * (1 + 1e-3)], 0.002, "w"),  # one kernel element, 1e-3 of itself
        ([0.5, -0.25], 0.002 + 0.5e-3, "b"),  # the bias, by 1e-3 of the parameters' scale
    ],
)
def test_a_1e_3_relative_change_of_the_parameters_is_a_difference(
    w_final: Any, b_final: float, variable: str
) -> None:
    old = adam_run([0.01, 0.016], [0.5, -0.25], 0.002)
    d = compare_runs(old, adam_run([0.01, 0.016], w_final, b_final), TOL).divergence
    assert d is not None and (d.observable, d.variable) == ("variable", variable)


def test_a_late_small_gradient_is_judged_against_the_gradients_scale_so_far() -> None:
    # 1e-3 off its own value, 1e-5 of the gradient's scale in step 1: within the drift
    # allowed there. A mistake that makes it so shows in the parameters it moves (above).
    old = adam_run([0.01, 0.016], [0.5, -0.25], 0.002)
    new = adam_run([0.01 * (1 + 1e-3), 0.016 * (1 + 1e-3)], [0.5, -0.25], 0.002)
    assert compare_runs(old, new, TOL).divergence is None


def test_a_1e_3_relative_change_of_a_gradient_at_its_scale_is_a_difference() -> None:
    old = adam_run([0.01, 0.016], [0.5, -0.25], 0.002)
    new = run(
        "",
        old.trace["variables"],
        [step(("w", 0, [1.0, 2.0 * (1 + 1e-3)]), ("b", 1, 0.5)), old.trace["steps"][1]],
    )
    d = compare_runs(old, new, TOL).divergence
    assert d is not None and (d.observable, d.step, d.variable) == ("gradient", 1, "w")


def test_printed_arrays_are_compared_like_tensors() -> None:
    assert compare_runs(run("[1.0 0.016]\n"), run("[1.0 0.016003]\n"), TOL).divergence is None
    d = compare_runs(run("1.0 0.016\n"), run("1.0 0.016003\n"), TOL).divergence
    assert d is not None and (d.old, d.new) == ("0.016", "0.016003")


def test_final_state_difference_is_reported_with_creation_lines() -> None:
    old = two_var_run([[1.0, 2.0]], [0.1, 0.2], lines=(3, 4))
    new = two_var_run([[1.0, 2.0]], [0.1, 0.3], lines=(7, 8))
    d = compare_runs(old, new, TOL).divergence
    assert d is not None
    assert (d.observable, d.variable, d.old_line, d.new_line) == ("variable", "w", 3, 7)
    assert "final value" in d.detail


def test_stdout_number_difference() -> None:
    old = two_var_run([[1.0, 2.0]], [0.1, 0.2], "epoch 1\nloss 0.5\n")
    new = two_var_run([[1.0, 2.0]], [0.1, 0.2], "epoch 1\nloss 0.6\n")
    d = compare_runs(old, new, TOL).divergence
    assert d is not None
    assert (d.observable, d.old, d.new) == ("stdout", "0.5", "0.6")
    assert "output line 2" in d.detail and "text-only" not in d.detail


def test_words_only_difference_is_called_text_only() -> None:
    old = run("Loss: 0.5 dtype=float32\n")
    new = run("loss: 0.5 dtype=float64\n")
    d = compare_runs(old, new, TOL).divergence
    assert d is not None and d.observable == "stdout"
    assert "text-only" in d.detail


def test_extra_words_with_numbers_still_text_only_but_not_with_extra_numbers() -> None:
    assert "text-only" in compare_runs(run("a 1 b 2"), run("a 1 c d b 2"), TOL).divergence.detail
    assert "text-only" not in compare_runs(run("a 1 b 2"), run("a 1 b 2 3"), TOL).divergence.detail


def test_printing_difference_before_a_step_wins_over_that_steps_gradient() -> None:
    stdout_old, stdout_new = "start 1\nstep 2\n", "start 9\nstep 2\n"
    # the differing token "1" is at byte 6; step 1 ran after 8 bytes had been printed
    old = two_var_run([[1.0, 2.0]], [0.1, 0.2], stdout_old, offsets=[8])
    new = two_var_run([[5.0, 2.0]], [0.1, 0.2], stdout_new, offsets=[8])
    assert compare_runs(old, new, TOL).divergence.observable == "stdout"
    # step 1 ran before anything was printed: the gradient comes first
    old = two_var_run([[1.0, 2.0]], [0.1, 0.2], stdout_old, offsets=[0])
    new = two_var_run([[5.0, 2.0]], [0.1, 0.2], stdout_new, offsets=[0])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.step) == ("gradient", 1)


def test_stdout_divergence_reports_how_many_steps_ran_before_it() -> None:
    old = two_var_run([[1.0, 2.0]] * 3, [0.1, 0.2], "a 1\nb 2\nc 3\n", offsets=[0, 4, 8])
    new = two_var_run([[1.0, 2.0]] * 3, [0.1, 0.2], "a 1\nb 2\nc 4\n", offsets=[0, 4, 8])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.step) == ("stdout", 3)


def test_names_fall_back_to_creation_order_and_shape() -> None:
    old_vars = [
        var("dense1/weight", 0, np.ones((3, 2))),
        var("dense1/bias", 1, np.zeros(2)),
        var("Variable_2", 2, 3.0, trainable=False),  # a counter, unnamed
    ]
    new_vars = [
        var("steps_seen", 0, 3.0, trainable=False),
        var("my_model/dense/kernel", 1, np.ones((3, 2))),
        var("my_model/dense/bias", 2, np.zeros(2)),
    ]
    old = run(
        "",
        old_vars,
        [step(("dense1/weight", 0, np.ones((3, 2))), ("dense1/bias", 1, np.ones(2)))],
    )
    new = run(
        "",
        new_vars,
        [
            step(
                ("my_model/dense/kernel", 1, np.ones((3, 2))),
                ("my_model/dense/bias", 2, np.ones(2)),
            )
        ],
    )
    assert model_variables(old.trace) == {0, 1} and model_variables(new.trace) == {1, 2}
    # the model pairs among itself, the counter with the rest of the state
    assert pair_variables(old_vars, new_vars, {0, 1}, {1, 2}) == {0: 1, 1: 2, 2: 0}
    result = compare_runs(old, new, TOL)
    assert result.divergence is None and result.uncompared == []


def test_a_renamed_counter_with_another_value_is_a_difference() -> None:
    steps = [step(("w", 0, 0.5))]
    old = run("", [var("w", 0, 1.0), var("Variable_1", 1, 6.0, trainable=False, line=4)], steps)
    new = run("", [var("w", 0, 1.0), var("count", 1, 5.0, trainable=False, line=7)], steps)
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.variable, d.old, d.new, d.new_line) == ("variable", "Variable_1", 6.0, 5.0, 7)


def test_state_outside_the_model_without_a_counterpart_is_not_compared() -> None:
    old_vars = [var("a", 0, 1.0), var("b", 1, 2.0)]
    new_vars = [var("a", 0, 1.0), var("b", 1, 2.0), var("examples_seen", 2, 300.0, trainable=False)]
    steps = [step(("a", 0, 0.5), ("b", 1, 0.5))]
    result = compare_runs(run("", old_vars, steps), run("", new_vars, steps), TOL)
    assert result.divergence is None
    assert [u.split(" (")[0] for u in result.uncompared] == ["the rewrite's examples_seen"]
    # the original's counter the rewrite drops is not compared either
    result = compare_runs(run("", new_vars, steps), run("", old_vars, steps), TOL)
    assert [u.split(" (")[0] for u in result.uncompared] == ["the original's examples_seen"]
    # without steps, trainable variables are the model: an extra one is a difference
    new_vars[2]["trainable"] = True
    d = compare_runs(run("", old_vars), run("", new_vars), TOL).divergence
    assert (d.observable, d.variable) == ("variable", "examples_seen")


def test_fallback_pairing_still_finds_a_value_difference() -> None:
    old = run("", [var("weight", 0, [1.0, 2.0], line=5)])
    new = run("", [var("dense/kernel", 0, [1.0, 2.5], line=9)])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.variable, d.old, d.new, d.old_line, d.new_line) == (
        "variable",
        "weight",
        2.0,
        2.5,
        5,
        9,
    )


def test_shape_change_is_reported_at_creation_before_later_gradients() -> None:
    # the guide's broken hand migration: dense2 is fed the inputs, so its weight is (32, 10)
    old_vars = [
        var("dense1/weight", 0, np.zeros((32, 10)), line=4, offset=0),
        var("dense2/weight", 1, np.zeros((10, 10)), line=5, offset=0),
    ]
    new_vars = [
        var("dense1/weight", 0, np.zeros((32, 10)), line=12, offset=0),
        var("dense2/weight", 1, np.zeros((32, 10)), line=13, offset=0),
    ]
    steps_old = [
        step(
            ("dense1/weight", 0, np.ones((32, 10))),
            ("dense2/weight", 1, np.ones((10, 10))),
            offset=0,
        )
    ]
    steps_new = [
        step(
            ("dense1/weight", 0, np.full((32, 10), 2.0)),
            ("dense2/weight", 1, np.ones((32, 10))),
            offset=0,
        )
    ]
    d = compare_runs(run("", old_vars, steps_old), run("", new_vars, steps_new), TOL).divergence
    assert (d.observable, d.variable, d.old_line, d.new_line) == (
        "variable",
        "dense2/weight",
        5,
        13,
    )
    assert "(10, 10)" in d.detail and "(32, 10)" in d.detail


def test_trainable_variable_missing_from_the_rewrite() -> None:
    old = run("", [var("w", 0, [1.0], line=2), var("b", 1, [0.0, 0.0], line=3)])
    new = run("", [var("w", 0, [1.0], line=2)])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.variable, d.old_line) == ("variable", "b", 3)
    assert "no counterpart" in d.detail


def test_extra_trainable_variable_in_the_rewrite() -> None:
    old = run("", [var("w", 0, [1.0])])
    new = run("", [var("w", 0, [1.0]), var("extra", 1, [1.0, 2.0], line=6)])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.variable, d.new_line) == ("variable", "extra", 6)


def test_update_missing_from_a_step() -> None:
    variables = [var("w", 0, [1.0]), var("b", 1, [0.0])]
    old = run("", variables, [step(("w", 0, [1.0]), ("b", 1, [1.0]))])
    new = run("", variables, [step(("w", 0, [1.0]))])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.step, d.variable) == ("gradient", 1, "b")
    assert compare_runs(new, old, TOL).divergence.detail.startswith("the rewrite also updates b")


def test_missing_gradient_against_a_gradient() -> None:
    variables = [var("w", 0, [1.0])]
    d = compare_runs(
        run("", variables, [step(("w", 0, [1.0]))]), run("", variables, [step(("w", 0, None))]), TOL
    ).divergence
    assert (d.observable, d.step, d.old, d.new) == ("gradient", 1, [1.0], None)


def test_different_step_counts() -> None:
    variables = [var("w", 0, [1.0])]
    old = run("", variables, [step(("w", 0, [1.0]))] * 5)
    new = run("", variables, [step(("w", 0, [1.0]))] * 4)
    result = compare_runs(old, new, TOL)
    assert (result.divergence.observable, result.divergence.step) == ("gradient", 5)
    assert result.steps_compared == 4
    assert "5" in result.divergence.detail and "4" in result.divergence.detail


def test_one_side_stopped_at_the_budget_and_the_other_ended() -> None:
    variables = [var("w", 0, [1.0])]
    old = run("", variables, [step(("w", 0, [1.0]))] * 3, stopped=True)
    new = run("", variables, [step(("w", 0, [1.0]))] * 3, stopped=False)
    d = compare_runs(old, new, TOL).divergence
    assert d is not None and "step budget" in d.detail


def test_large_tensors_are_compared_through_their_digest() -> None:
    base = np.linspace(1.0, 2.0, 10000)
    shifted = base * (1 + 1e-3)
    variables = [var("w", 0, base)]
    same = compare_runs(
        run("", variables, [step(("w", 0, base))]), run("", variables, [step(("w", 0, base))]), TOL
    )
    assert same.divergence is None
    d = compare_runs(
        run("", variables, [step(("w", 0, base))]),
        run("", variables, [step(("w", 0, shifted))]),
        TOL,
    ).divergence
    assert (d.observable, d.step) == ("gradient", 1)
    # one far-off element that the sample misses still moves the norms
    spike = base.copy()
    spike[1] = 50.0
    d = compare_runs(
        run("", variables, [step(("w", 0, base))]), run("", variables, [step(("w", 0, spike))]), TOL
    ).divergence
    assert d is not None and "norm" in d.detail


def test_crash_in_the_rewrite_is_reported_as_the_exit_not_as_missing_output() -> None:
    old = run("step 1\nstep 2\ndone\n")
    new = run("step 1\n", exit_code=1, exception="TypeError")
    d = compare_runs(old, new, TOL).divergence
    assert d.observable == "exit"
    assert "TypeError" in str(d.new) and "exit status 0" in str(d.old)


def test_a_rewrite_that_crashes_before_creating_variables_is_an_exit_difference() -> None:
    old = run("", [var("w", 0, [1.0], line=2)], exit_code=0)
    new = run("", [], exit_code=1, exception="IndentationError")
    assert compare_runs(old, new, TOL).divergence.observable == "exit"


def test_an_earlier_value_difference_beats_a_later_crash() -> None:
    old = run("step 1\nstep 2\ndone\n")
    new = run("step 7\n", exit_code=1, exception="TypeError")
    assert compare_runs(old, new, TOL).divergence.observable == "stdout"


def test_same_exception_type_on_both_sides_is_no_divergence() -> None:
    old = run("x\n", exit_code=1, exception="InvalidArgumentError")
    new = run("x\n", exit_code=1, exception="InvalidArgumentError")
    assert compare_runs(old, new, TOL).divergence is None
    other = run("x\n", exit_code=1, exception="ValueError")
    assert compare_runs(old, other, TOL).divergence.observable == "exit"


def test_exit_status_without_exception_is_compared() -> None:
    assert compare_runs(run(exit_code=2), run(exit_code=0), TOL).divergence.observable == "exit"


def test_missing_trace_compares_stdout_and_says_so() -> None:
    result = compare_runs(run("1\n"), run("1\n", traced=False), TOL)
    assert result.divergence is None
    assert any("no trace" in note for note in result.notes)


finite = st.floats(-1e3, 1e3, allow_nan=False, width=32)


@settings(max_examples=40, deadline=None)
@given(
    grads=st.lists(st.lists(finite, min_size=3, max_size=3), min_size=1, max_size=6),
    data=st.data(),
)
def test_any_single_gradient_change_beyond_tolerance_is_found_at_its_step(grads, data) -> None:
    variables = [var("w", 0, np.zeros(3))]
    old = run("", variables, [step(("w", 0, g)) for g in grads])
    assert compare_runs(old, old, TOL).divergence is None
    k = data.draw(st.integers(0, len(grads) - 1))
    i = data.draw(st.integers(0, 2))
    changed = [list(g) for g in grads]
    scale = max(abs(np.float32(x)) for g in grads[: k + 1] for x in g)  # the gradient so far
    changed[k][i] = float(np.float32(grads[k][i])) + 2 * (TOL.atol + TOL.rtol * scale) + 1e-3
    d = compare_runs(old, run("", variables, [step(("w", 0, g)) for g in changed]), TOL).divergence
    assert (d.observable, d.step, d.variable) == ("gradient", k + 1, "w")


def test_a_crash_outranks_the_final_values_it_cut_short() -> None:
    old = run("", [var("w", 0, [0.0], line=3)], [step(("w", 0, [1.0]))] * 2)
    new = run(
        "",
        [var("w", 0, [0.5], line=5)],
        [step(("w", 0, [1.0]))],
        exit_code=1,
        exception="ValueError",
        raised_at=12,
    )
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.new_line) == ("exit", 12)
    assert d.new == "ValueError: boom"


def test_a_gradient_difference_before_the_crash_still_wins() -> None:
    old = run("", [var("w", 0, [0.0], line=3)], [step(("w", 0, [1.0]))] * 2)
    new = run(
        "",
        [var("w", 0, [0.5], line=5)],
        [step(("w", 0, [2.0]))],
        exit_code=1,
        exception="ValueError",
        raised_at=12,
    )
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.step, d.old_line, d.new_line) == ("gradient", 1, 3, 5)


def test_a_step_count_mismatch_names_the_line_of_the_first_unmatched_step() -> None:
    variables = [var("w", 0, [1.0])]
    short = run("", variables, [step(("w", 0, [1.0]), line=7)] * 4)
    long = run("", variables, [step(("w", 0, [1.0]), line=9)] * 5)
    d = compare_runs(short, long, TOL).divergence
    assert (d.observable, d.step, d.old_line, d.new_line) == ("gradient", 5, None, 9)
    assert "rewrite line 9" in d.detail
    d = compare_runs(long, short, TOL).divergence
    assert (d.step, d.old_line, d.new_line) == (5, 9, None)


def test_names_are_paired_across_a_leading_model_scope() -> None:
    old_vars = [var("dense1/weight", 0, np.ones((3, 2))), var("dense2/weight", 1, np.ones((2, 2)))]
    # created in the other order, so creation order and shape alone would pair them wrongly
    new_vars = [
        var("model/dense2/weight", 0, np.ones((3, 2))),
        var("model/dense1/weight", 1, np.ones((3, 2))),
    ]
    assert pair_variables(old_vars, new_vars, {0, 1}, {0, 1}) == {0: 1, 1: 0}
    # the other way round too: the original may be the side with the scope
    assert pair_variables(new_vars, old_vars, {0, 1}, {0, 1}) == {0: 1, 1: 0}


def test_an_ambiguous_scoped_name_falls_back_to_creation_order() -> None:
    old_vars = [var("w", 0, [1.0])]
    new_vars = [var("b/w", 0, [1.0]), var("a/w", 1, [1.0])]
    assert pair_variables(old_vars, new_vars, {0}, {0, 1}) == {0: 0}


def test_shape_change_names_the_calls_that_built_both_variables() -> None:
    old = run("", [var("dense2/weight", 0, np.zeros((10, 10)), line=6, callers=(14, 20))])
    new = run("", [var("model/dense2/weight", 0, np.zeros((32, 10)), line=13, callers=(29, 34))])
    d = compare_runs(old, new, TOL).divergence
    assert (d.observable, d.variable, d.old_line, d.new_line) == (
        "variable",
        "dense2/weight",
        6,
        13,
    )
    assert "(10, 10) vs (32, 10)" in d.detail
    assert "created by the call at original line 14, rewrite line 29" in d.detail


def test_reprinted_lines_take_the_originals_text_and_others_are_still_compared() -> None:
    old = 'Tensor("Square:0", shape=(), dtype=float32)\n9.0\n'
    new = "tf.Tensor(9.0, shape=(), dtype=float32)\n9.5\n"
    prints = ([(0, 7), (44, 9)], [(0, 3), (40, 5)])
    text, replaced = with_reprints(old, new, prints, frozenset({7}))
    assert (text, replaced) == ('Tensor("Square:0", shape=(), dtype=float32)\n9.5\n', 1)


def test_reprints_need_both_runs_to_print_as_often() -> None:
    prints = ([(0, 7)], [(0, 3), (4, 4)])
    assert with_reprints("a\n", "b\nc\n", prints, frozenset({7})) == ("b\nc\n", 0)


def summary(tag: str, step: int, value: Any, *, steps: int = 0, line: int = 1) -> dict[str, Any]:
    return {
        "tag": tag,
        "step": step,
        "value": record_array(np.asarray(value, np.float32)),
        "line": line,
        "steps": steps,
        "stdout_offset": 0,
    }


def with_summaries(*events: dict[str, Any]) -> RunResult:
    result = run()
    result.trace["summaries"] = list(events)
    return result


def test_a_summary_written_at_another_step_is_a_difference() -> None:
    old = with_summaries(summary("loss", 0, 2.0, line=7), summary("loss", 10, 1.0, line=7))
    new = with_summaries(summary("loss", 1, 2.0, line=9), summary("loss", 11, 1.0, line=9))
    d = compare_runs(old, new, TOL).divergence
    assert d is not None
    assert (d.observable, d.variable, d.old, d.new) == ("summary", "loss", 0, 1)
    assert (d.old_line, d.new_line) == (7, 9)


def test_summary_values_are_compared_per_tag_against_their_series_scale() -> None:
    old = with_summaries(summary("w", 0, 2.0), summary("b", 0, 5.0), summary("w", 1, 1e-3))
    drifted = with_summaries(summary("b", 0, 5.0), summary("w", 0, 2.0), summary("w", 1, 1.1e-3))
    assert compare_runs(old, drifted, TOL).divergence is None
    changed = with_summaries(summary("w", 0, 2.0), summary("b", 0, 5.0), summary("w", 1, 2e-3))
    d = compare_runs(old, changed, TOL).divergence
    assert (d.observable, d.variable) == ("summary", "w")
    assert (d.old, d.new) == (np.float32(1e-3), np.float32(2e-3))


def test_a_summary_series_cut_short_or_only_on_one_side_is_a_difference() -> None:
    old = with_summaries(summary("loss", 0, 2.0), summary("loss", 10, 1.0))
    d = compare_runs(old, with_summaries(summary("loss", 0, 2.0)), TOL).divergence
    assert (d.observable, d.old, d.new) == ("summary", 2, 1)
    d = compare_runs(old, with_summaries(*old.trace["summaries"], summary("acc", 0, 0.5)), TOL)
    assert d.divergence is not None and "'acc'" in d.divergence.detail


def test_summary_series_named_otherwise_pair_in_order_of_appearance() -> None:
    old = with_summaries(summary("loss_1", 0, 2.0), summary("acc", 0, 0.5))
    renamed = with_summaries(summary("loss", 0, 2.0), summary("acc", 0, 0.5))
    assert compare_runs(old, renamed, TOL).divergence is None
    changed = with_summaries(summary("loss", 0, 2.5), summary("acc", 0, 0.5))
    assert compare_runs(old, changed, TOL).divergence.variable == "loss_1"


def test_printed_integers_are_compared_exactly_and_floats_within_tolerance() -> None:
    d = compare_runs(run("seen 10000 examples\n"), run("seen 10001 examples\n"), TOL).divergence
    assert d is not None and (d.old, d.new) == ("10000", "10001")
    assert compare_runs(run("[1 2 30000]\n"), run("[2 2 30000]\n"), TOL).divergence is not None
    assert compare_runs(run("loss 10000.0\n"), run("loss 10000.5\n"), TOL).divergence is None


def test_an_integer_variable_is_compared_exactly() -> None:
    old = run(variables=[var("w", 0, 1.0), var("global_step", 1, 10000)])
    new = run(variables=[var("w", 0, 1.0), var("global_step", 1, 10001)])
    for result in (old, new):
        record = result.trace["variables"][1]
        record["value"] = record_array(np.int64(record["value"]["values"][0]))
    d = compare_runs(old, new, TOL).divergence
    assert d is not None and (d.observable, d.variable) == ("variable", "global_step")


def saved(*entries: tuple[int, Any], steps: int = 0, line: int = 1) -> dict[str, Any]:
    return {
        "saved": [
            {"index": i, "value": record_array(np.asarray(v, np.float32))} for i, v in entries
        ],
        "line": line,
        "steps": steps,
        "stdout_offset": 0,
    }


def with_checkpoints(*checkpoints: dict[str, Any], names=("w", "b")) -> RunResult:
    result = two_var_run([[1.0, 2.0]], [0.1, 0.2], names=names)
    result.trace["checkpoints"] = list(checkpoints)
    return result


def test_a_checkpoint_that_saves_another_value_or_leaves_a_model_variable_out_differs() -> None:
    old = with_checkpoints(saved((0, [0.1, 0.2]), (1, 0.5), line=20))
    assert (
        compare_runs(old, with_checkpoints(saved((1, 0.5), (0, [0.1, 0.2]))), TOL).divergence
        is None
    )
    d = compare_runs(
        old, with_checkpoints(saved((0, [0.1, 0.2]), (1, 0.7), line=30)), TOL
    ).divergence
    assert (d.observable, d.variable, d.old_line, d.new_line) == ("checkpoint", "b", 20, 30)
    d = compare_runs(old, with_checkpoints(saved((0, [0.1, 0.2]))), TOL).divergence
    assert (d.observable, d.variable) == ("checkpoint", "b") and "does not save" in d.detail
    d = compare_runs(old, with_checkpoints(), TOL).divergence
    assert (d.observable, d.old, d.new) == ("checkpoint", 1, 0)


def test_checkpointed_variables_pair_like_the_final_state() -> None:
    old = with_checkpoints(saved((0, [0.1, 0.2]), (1, 0.5)))
    new = with_checkpoints(saved((0, [0.1, 0.2]), (1, 0.5)), names=("model/w", "model/b"))
    assert compare_runs(old, new, TOL).divergence is None


def test_printed_objects_differing_only_by_address_agree_but_not_by_class() -> None:
    from runtime.observables import Stats, Tolerance
    from runtime.printed_output import compare_stdout

    same = compare_stdout("<Iterator object at 0x7ff3d9a27210>\n", "<Iterator object at 0x7fae0ee30710>\n",
                          Tolerance(), Stats(), [])
    assert same is None
    other = compare_stdout("<Iterator object at 0x7ff3d9a27210>\n", "<OwnedIterator object at 0x7fae0ee30710>\n",
                           Tolerance(), Stats(), [])
    assert other is not None and "Iterator" in other.divergence.detail
