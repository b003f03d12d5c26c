"""Attributing divergences to source lines from recorded values, on hand-built value logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from runtime.attribute import first_differences
from runtime.observables import Tolerance
from runtime.sandbox import run_program
from runtime.trace import record_array

TOL = Tolerance()
W = np.array([[1.0, -2.0], [0.5, 1.5]], np.float32)
X = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)


def rec(
    op: str, line: int, inputs: list[int], value: Any, *, derived: bool = False
) -> dict[str, Any]:
    return {
        "op": op,
        "line": line,
        "callers": [],
        "inputs": inputs,
        "derived": derived,
        "value": record_array(np.asarray(value, np.float32)),
    }


def dense(line: int, x: Any, relu: bool, first: int = 0) -> list[dict[str, Any]]:
    """read W, x @ W (x fed), and optionally relu: records numbered from ``first``."""
    records = [rec("ReadVariableOp", line, [], W), rec("MatMul", line, [-1, first], X @ W)]
    if relu:
        records.append(rec("Relu", line, [first + 1], np.maximum(X @ W, 0)))
    return records


def test_a_dropped_activation_is_named_with_the_line_that_uses_its_input_instead() -> None:
    old = dense(8, X, relu=True) + [rec("Square", 9, [2], np.maximum(X @ W, 0) ** 2)]
    new = dense(17, X, relu=False) + [rec("Square", 20, [1], (X @ W) ** 2)]
    (d,) = first_differences(old, new, TOL)
    assert (d.observable, d.old_line, d.new_line) == ("value", 8, 20)
    assert "Relu" in d.detail and "Square" in d.detail


def test_a_dropped_activation_whose_input_goes_unused_names_where_the_input_is_computed() -> None:
    # The guide's hand migration: dense1's output is never used, and has no relu.
    old = dense(8, X, relu=True) + [rec("Square", 9, [2], np.maximum(X @ W, 0) ** 2)]
    (d,) = first_differences(old, dense(17, X, relu=False), TOL)
    assert (d.observable, d.old_line, d.new_line) == ("value", 8, 17)
    assert "Relu" in d.detail and "MatMul" in d.detail


def test_the_same_inputs_used_differently_is_one_mistake_with_a_line_on_each_side() -> None:
    old = dense(5, X, relu=False) + [rec("Mul", 6, [1], 2 * (X @ W))]
    new = dense(15, X, relu=False) + [rec("Mul", 16, [1], 3 * (X @ W))]
    (d,) = first_differences(old, new, TOL)
    assert (d.old_line, d.new_line) == (6, 16)
    assert d.detail.startswith("from the same values")


def test_other_intermediates_that_agree_again_are_no_difference() -> None:
    # The original computes softmax cross-entropy in one op, the rewrite via softmax and log.
    logits = X @ W
    softmax = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    loss = -np.log(softmax[:, 0]).mean()
    old = dense(5, X, relu=False) + [rec("SoftmaxXent", 6, [1], loss)]
    new = dense(15, X, relu=False) + [
        rec("Softmax", 16, [1], softmax),
        rec("Log", 16, [2], np.log(softmax)),
        rec("Mean", 16, [3], loss),
    ]
    assert first_differences(old, new, TOL) == []


def test_gradients_computed_through_other_ops_are_no_difference() -> None:
    old = dense(5, X, relu=False) + [rec("MatMul", 7, [1], X.T @ X, derived=True)]
    new = dense(15, X, relu=False) + [rec("Neg", 20, [1], -(X @ W), derived=True)]
    assert first_differences(old, new, TOL) == []


def test_a_value_that_differs_by_a_variable_is_left_to_the_variable_comparison() -> None:
    # The original adds a zero bias, so its sum equals the rewrite's matmul; the
    # rewrite's bias starts elsewhere, which the trace reports as a variable.
    zero, bias = np.zeros(2, np.float32), np.float32([0.5, -0.5])
    old = dense(5, X, relu=False) + [
        rec("ReadVariableOp", 5, [], zero),
        rec("AddV2", 5, [1, 2], X @ W),
        rec("Relu", 5, [3], np.maximum(X @ W, 0)),
    ]
    new = dense(15, X, relu=False) + [
        rec("ReadVariableOp", 15, [], bias),
        rec("AddV2", 15, [1, 2], X @ W + bias),
        rec("Relu", 15, [3], np.maximum(X @ W + bias, 0)),
    ]
    assert first_differences(old, new, TOL) == []


def test_the_engine_records_values_with_their_lines_and_inputs_only_when_asked(
    tmp_path: Path,
) -> None:
    program = tmp_path / "prog.py"
    program.write_text(
        "import tensorflow as tf\n"
        "x = tf.constant([1.0, 2.0])\n"
        "@tf.function\n"
        "def f(x):\n"
        "    return tf.nn.relu(x - 1.5)\n"
        "print(f(x).numpy(), tf.square(x).numpy())\n"
    )
    records = run_program(program, face="tf2", values=True).trace["values"]
    relu = next(r for r in records if r["op"] == "Relu")
    assert (relu["line"], relu["callers"], relu["value"]["values"]) == (5, [6], [0.0, 0.5])
    assert records[relu["inputs"][0]]["op"] == "Sub"  # computed in the function graph
    square = next(r for r in records if r["op"] == "Square")  # computed eagerly
    assert (square["line"], square["inputs"]) == (6, [-1])
    assert run_program(program, face="tf2").trace["values"] is None
