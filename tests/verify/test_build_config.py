"""What each program built: initializers, dropouts and losses, in one vocabulary for TF1 and
TF2, compared with the optimizers' own ``rule_difference``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from runtime.build_config import compare_built
from runtime.update_rules import build_rule

ROOT = Path(__file__).resolve().parents[2]

TF1 = """import tensorflow as tf
a = tf.get_variable("a", [3, 2])
b = tf.get_variable("b", [3, 2], initializer=tf.contrib.layers.xavier_initializer())
c = tf.get_variable("c", [3], initializer=tf.truncated_normal_initializer(stddev=0.1, seed=3))
d = tf.get_variable("d", [3, 2], initializer=tf.variance_scaling_initializer(2.0, distribution="normal"))
e = tf.get_variable("e", [2], initializer=tf.constant_initializer(0.5))
x = tf.placeholder(tf.float32, [None, 3])
h = tf.nn.dropout(x, keep_prob=0.9)
h = tf.layers.dropout(h, rate=0.25, training=True)
loss = tf.losses.mean_squared_error(x, h)
total = tf.losses.absolute_difference(x, h, reduction=tf.losses.Reduction.SUM)
"""

TF2 = """import tensorflow as tf
a = tf.Variable(tf.keras.initializers.GlorotUniform()([3, 2]), name="a")
b = tf.Variable(tf.keras.initializers.GlorotUniform()([3, 2]), name="b")
c = tf.Variable(tf.keras.initializers.TruncatedNormal(stddev=0.1, seed=3)([3]), name="c")
d = tf.Variable(tf.keras.initializers.VarianceScaling(2.0, distribution="truncated_normal")([3, 2]),
                name="d")
e = tf.Variable(tf.constant_initializer(0.5)([2]), name="e")
first = tf.keras.layers.Dropout(0.1)
second = tf.keras.layers.Dropout(0.25)
mse = tf.keras.losses.MeanSquaredError()
mae = tf.keras.losses.MeanAbsoluteError(reduction="sum")
"""


def trace_of(tmp_path: Path, source: str, name: str) -> dict:
    program = tmp_path / f"{name}.py"
    program.write_text(source)
    out = tmp_path / f"{name}.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), TFMIGRATE_TRACE=str(out),
               TFMIGRATE_PROGRAM=str(program))
    subprocess.run([sys.executable, "-m", "runtime.run", str(program)], env=env, check=True,
                   capture_output=True, timeout=120, cwd=tmp_path)
    return json.loads(out.read_text())


def test_tf1_and_keras_spellings_of_the_same_settings_are_one_rule(tmp_path: Path) -> None:
    old, new = trace_of(tmp_path, TF1, "old"), trace_of(tmp_path, TF2, "new")
    glorot = build_rule("variance_scaling", scale=1.0, mode="fan_avg", distribution="uniform", seed=None)
    inits = {v["var"]: v["init"] for v in old["variables"]}
    assert inits == {
        "a": glorot,  # get_variable's default
        "b": glorot,
        "c": build_rule("truncated_normal", mean=0.0, stddev=0.1, seed="3"),
        "d": build_rule("variance_scaling", scale=2.0, mode="fan_in", distribution="truncated_normal",
                        seed=None),
        "e": build_rule("constant", value=0.5),
    }
    assert {v["var"]: v["init"] for v in new["variables"]} == inits
    rules = [b["rule"] for b in old["built"]]
    assert rules == [build_rule("dropout", rate=np.float32(1 - 0.9), seed=None),
                     build_rule("dropout", rate=0.25, seed=None),
                     build_rule("loss", reduction="mean"), build_rule("loss", reduction="sum")]
    assert compare_built(old, new) == (None, [])


def test_each_line_records_a_setting_once_however_often_it_runs(tmp_path: Path) -> None:
    source = TF2 + "for _ in range(3):\n    tf.nn.dropout(tf.ones([2]), rate=0.5)\n"
    built = [b["rule"] for b in trace_of(tmp_path, source, "loop")["built"]]
    assert built.count(build_rule("dropout", rate=0.5, seed=None)) == 1


# ---------------------------------------------------------------------- comparing two traces


def _trace(inits: list, built: list | None = None) -> dict:
    variables = [{"var": f"v{i}", "index": i, "trainable": True, "line": 10 + i, "init": init,
                  "value": {"shape": [2], "values": [0.0, 0.0]}} for i, init in enumerate(inits)]
    return {"variables": variables, "steps": [], "built": built or []}


def test_an_initializer_drawn_otherwise_is_named_with_both_settings_and_lines() -> None:
    uniform = build_rule("variance_scaling", scale=1.0, mode="fan_avg", distribution="uniform", seed=None)
    normal = uniform | {"distribution": "truncated_normal"}
    found, _ = compare_built(_trace([None, uniform]), _trace([None, normal]))
    assert (found.observable, found.variable, found.old, found.new) == (
        "configuration", "v1", "uniform", "truncated_normal")
    assert (found.old_line, found.new_line) == (11, 11)
    assert found.detail == ("v1 draws its initial value otherwise: variance_scaling distribution "
                            "'uniform' in the original, 'truncated_normal' in the rewrite")


def test_a_variable_started_from_values_on_one_side_is_left_to_its_values() -> None:
    rule = build_rule("uniform", minval=0.0, maxval=1.0, seed=None)
    assert compare_built(_trace([rule]), _trace([None])) == (None, [])


def test_a_seed_is_part_of_the_setting() -> None:
    rule = build_rule("normal", mean=0.0, stddev=1.0, seed="1")
    found, _ = compare_built(_trace([rule]), _trace([rule | {"seed": "2"}]))
    assert found is not None and "seed '1' in the original, '2' in the rewrite" in found.detail


def test_dropouts_pair_by_order_and_differ_within_any_tolerance() -> None:
    old = [{"rule": build_rule("dropout", rate=0.5, seed=None), "line": 3},
           {"rule": build_rule("dropout", rate=0.3, seed=None), "line": 4}]
    new = [old[0] | {"line": 7}, {"rule": build_rule("dropout", rate=0.29999, seed=None), "line": 9}]
    found, _ = compare_built(_trace([], old), _trace([], new))
    assert (found.old_line, found.new_line) == (4, 9)
    assert found.detail == ("dropout 2 of each program is built otherwise: dropout rate 0.3 in the "
                            "original, 0.29999 in the rewrite")


def test_settings_that_cannot_be_paired_are_noted() -> None:
    old = [{"rule": build_rule("loss", reduction="mean"), "line": 3}]
    assert compare_built(_trace([], old), _trace([])) == (
        None, ["the original builds 1 loss setting(s), the rewrite 0: those were not compared"])


def test_a_seed_the_original_leaves_to_the_graph_may_be_written_out_but_not_dropped() -> None:
    unset = build_rule("dropout", rate=0.3, seed=None)
    written = build_rule("dropout", rate=0.3, seed="2")
    built = [{"rule": unset, "line": 3}], [{"rule": written, "line": 5}]
    assert compare_built(_trace([], built[0]), _trace([], built[1])) == (None, [])
    found, _ = compare_built(_trace([], built[1]), _trace([], built[0]))
    assert found is not None and "seed '2' in the original, None in the rewrite" in found.detail
