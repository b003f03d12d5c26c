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


def test_a_gru_keeps_tf1s_sub_scopes_as_layers_of_the_cell() -> None:
    result = rewrite("cell = tf.contrib.rnn.GRUCell(4, kernel_initializer=tf.constant_initializer(0.1))")
    assert result.level == "idiomatic"
    assert "cell = GRUCell(4, kernel_initializer=tf.constant_initializer(0.1))" in result.code
    assert classes(result.code) == {"RNNCellTF1": "tf.keras.layers.Layer", "DenseTF1": "tf.keras.layers.Layer",
                                    "GRUCell": "RNNCellTF1"}
    # `rnn/gru_cell/gates/kernel`: the gates' bias starts at ones; r, then u.
    assert 'name="gates")' in result.code and "tf.constant_initializer(1.0)" in result.code
    assert "r, u = tf.split(tf.sigmoid(self.gates(tf.concat([inputs, h], 1))), 2, axis=1)" in result.code
    assert "new_h = u * h + (1 - u) * c" in result.code
    check_noop(result.code)


def test_a_multi_rnn_cell_and_its_cells_are_made_once_and_keep_tf1s_state() -> None:
    result = rewrite(
        "cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(4) for _ in range(2)])\n"
        "s0 = cell.zero_state(2, tf.float32)",
        "tf.nn.dynamic_rnn(cell, x, initial_state=s0)",
    )
    assert result.level == "idiomatic"
    assert "cell = MultiRNNCell([BasicLSTMCell(4) for _ in range(2)])" in result.code
    assert "out, st = rnn_layer(x, initial_state=[s0])" in result.code
    assert set(classes(result.code)) == {"RNNCellTF1", "BasicLSTMCell", "MultiRNNCell"}
    # Each cell builds under `cell_<i>`; the state is the tuple of the cells' states.
    assert 'with tf.keras.name_scope("cell_%d" % i):' in result.code
    assert "return inputs, [tuple(new_states)]" in result.code


def test_a_list_of_cells_bound_first_is_made_once_with_the_stack() -> None:
    result = rewrite(
        "cells = [tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.BasicRNNCell(2)]\ncell = tf.nn.rnn_cell.MultiRNNCell(cells)"
    )
    assert result.level == "idiomatic"
    assert result.code.index("cells = [GRUCell(3), BasicRNNCell(2)]") < result.code.index("@tf.function")


def test_what_a_keras_rnn_does_not_model_keeps_tf1_layout_cells_in_graph_mode() -> None:
    for cell_line, loop in [
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", "tf.nn.dynamic_rnn(cell, x, sequence_length=[3, 2], dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", "tf.nn.dynamic_rnn(cell, x, time_major=True, dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float64)"),
        ("cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(4, reuse=True)])",
         "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"),
        ("cell = tf.nn.rnn_cell.BasicLSTMCell(4, reuse=True)", "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"),
    ]:
        result = rewrite(cell_line, loop)
        assert result.level == "partial", loop
        assert "tf.compat.v1.nn.dynamic_rnn(" in result.code, loop
        assert classes(result.code).get("RNNCellTF1", "object") == "object", loop


def scoped(body: str) -> str:
    return PROGRAM.format(imports="", cell_line=body, loop="out, st")


def test_dynamic_rnn_inside_variable_scopes_is_called_under_keras_name_scopes() -> None:
    # TF1 named the cell's variables `enc/inner/rnn/basic_lstm_cell/kernel`; a Keras layer
    # first called under keras.name_scopes of those names builds its weights at that path.
    result = rewrite_source(scoped(
        "with tf.variable_scope('enc'):\n    with tf.variable_scope('inner'):\n"
        "        cell = tf.nn.rnn_cell.BasicLSTMCell(4)\n"
        "        out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"
    ))
    assert result.level == "idiomatic"
    assert ("    with tf.keras.name_scope('enc'), tf.keras.name_scope('inner'):\n"
            "        out, st = rnn_layer(x)\n") in result.code
    assert "name='rnn')" in result.code
    check_noop(result.code)


def test_get_variable_beside_the_rnn_keeps_its_scoped_name() -> None:
    result = rewrite_source(scoped(
        "with tf.variable_scope('enc'):\n    cell = tf.nn.rnn_cell.LSTMCell(4)\n"
        "    h, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n"
        "    w = tf.get_variable('w', [4, 1])\nout = tf.matmul(st.h, w)"
    ))
    assert result.level == "idiomatic"
    assert "name='enc/w')" in result.code
    assert "    with tf.keras.name_scope('enc'):\n        h, st = rnn_layer(x)\n" in result.code


def test_a_scoped_dynamic_rnn_in_every_step_function_is_called_under_the_scope() -> None:
    # Whichever step function runs first builds the layer, so each call site opens the scope.
    source = """\
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [2, 3, 4])
with tf.variable_scope('enc'):
    cell = tf.nn.rnn_cell.BasicLSTMCell(4)
    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
loss = tf.reduce_sum(out)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(st.c, {x: np.ones([2, 3, 4])}))
    sess.run(train, {x: np.ones([2, 3, 4])})
"""
    result = rewrite_source(source)
    assert result.level == "idiomatic"
    assert result.code.count("with tf.keras.name_scope('enc'):") == 2


def test_with_the_rule_off_the_file_keeps_graph_mode() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.BasicLSTMCell(4)", config=RewriteConfig(ignore=frozenset({"TF120"})))
    assert result.level == "partial"
    assert "tf.keras.layers.RNN" not in result.code
