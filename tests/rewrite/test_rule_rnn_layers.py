"""TF120: TF1 cells become Keras layers of the file and tf.nn.dynamic_rnn a tf.keras.layers.RNN."""

import ast

from helpers import TF1_NAMES, check_noop, code_names

from migrate.api import rewrite_source
from migrate.report import RewriteConfig

PROGRAM = """\
import numpy as np
import tensorflow as tf
{imports}
x = tf.placeholder(tf.float32, [2, 3, 4])
{cell_line}
out, st = {loop}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {{x: np.ones([2, 3, 4])}}))
"""


def rewrite(cell_line: str, loop: str = "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)", imports: str = "",
            config: RewriteConfig | None = None):
    return rewrite_source(PROGRAM.format(cell_line=cell_line, loop=loop, imports=imports), config=config)


def classes(code: str) -> dict[str, str]:
    """Each class the file defines -> its base, as written."""
    return {n.name: ast.unparse(n.bases[0]) for n in ast.parse(code).body if isinstance(n, ast.ClassDef)}


def test_an_lstm_under_dynamic_rnn_becomes_a_keras_rnn_layer() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.BasicLSTMCell(4, forget_bias=0.5)")
    assert result.level == "idiomatic"
    assert "cell = BasicLSTMCell(4, forget_bias=0.5)" in result.code
    assert ("rnn_layer = tf.keras.layers.RNN(cell, return_sequences=True, return_state=True, name='rnn')"
            in result.code)
    assert "    out, st = rnn_layer(x)\n" in result.code
    assert classes(result.code) == {"RNNCellTF1": "tf.keras.layers.Layer", "BasicLSTMCell": "RNNCellTF1"}
    # TF1's one kernel, gate order and forget bias added when the cell runs.
    assert "i, j, f, o = tf.split(self.linear([inputs, h]), 4, axis=1)" in result.code
    assert "tf.sigmoid(f + self.forget_bias)" in result.code
    assert not code_names(result.code) & TF1_NAMES
    assert {f.rule for f in result.findings if f.kind == "manual"} == set()
    check_noop(result.code)


def test_an_initial_state_is_passed_as_the_one_state_entry() -> None:
    result = rewrite(
        "cell = tf.contrib.rnn.LSTMCell(4)\ns0 = cell.zero_state(2, tf.float32)",
        "tf.nn.dynamic_rnn(cell, x, initial_state=s0)",
    )
    assert result.level == "idiomatic"
    assert "s0 = cell.zero_state(2, tf.float32)" in result.code
    assert "out, st = rnn_layer(x, initial_state=[s0])" in result.code
    assert classes(result.code)["LSTMCell"] == "BasicLSTMCell"


def test_a_named_scope_names_the_rnn_layer() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.BasicRNNCell(3)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope='encoder')")
    assert "tf.keras.layers.RNN(cell, return_sequences=True, return_state=True, name='encoder')" in result.code
    assert set(classes(result.code)) == {"RNNCellTF1", "BasicRNNCell"}
    assert "collections" not in result.code


def test_cells_imported_by_name_become_the_files_classes() -> None:
    result = rewrite("cell = BasicLSTMCell(4)", imports="from tensorflow.contrib.rnn import BasicLSTMCell")
    assert result.level == "idiomatic"
    assert "contrib" not in result.code
    assert "cell = BasicLSTMCell(4)" in result.code and "BasicLSTMCell" in classes(result.code)
    check_noop(result.code)


def test_what_a_keras_rnn_does_not_model_keeps_tf1_layout_cells_in_graph_mode() -> None:
    for cell_line, loop in [
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", "tf.nn.dynamic_rnn(cell, x, sequence_length=[3, 2], dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", "tf.nn.dynamic_rnn(cell, x, time_major=True, dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float64)"),
        ("cell = tf.nn.rnn_cell.GRUCell(4)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4, reuse=True)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"),
    ]:
        result = rewrite(cell_line, loop)
        assert result.level == "partial", loop
        assert "tf.compat.v1.nn.dynamic_rnn(" in result.code, loop
        assert classes(result.code).get("RNNCellTF1", "object") == "object", loop


def test_dynamic_rnn_inside_a_variable_scope_stays_partial() -> None:
    source = PROGRAM.format(
        imports="",
        cell_line="with tf.variable_scope('enc'):\n    cell = tf.nn.rnn_cell.BasicLSTMCell(4)\n"
        "    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)",
        loop="out, st",
    )
    result = rewrite_source(source)
    assert result.level == "partial"
    assert any(f.rule == "TF190" and "variable_scope 'enc'" in f.message for f in result.findings)


def test_with_the_rule_off_the_file_keeps_graph_mode() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", config=RewriteConfig(ignore=frozenset({"TF120"})))
    assert result.level == "partial"
    assert "tf.keras.layers.RNN" not in result.code
