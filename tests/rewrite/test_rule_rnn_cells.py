"""TF118: TF1 RNN cells become classes of the file (TF 2.21 with Keras 3 has none)."""

import ast

from helpers import check_noop

from migrate.api import rewrite_source
from migrate.report import RewriteConfig

PROGRAM = """\
import tensorflow as tf
x = tf.placeholder(tf.float32, [2, 3, 4])
{cell_line}
out, st = {loop}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {{x: [[[0.0] * 4] * 3] * 2}}))
"""


def rewrite(cell_line: str, loop: str = "tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)"):
    return rewrite_source(PROGRAM.format(cell_line=cell_line, loop=loop))


def defined_classes(code: str) -> set[str]:
    return {n.name for n in ast.parse(code).body if isinstance(n, ast.ClassDef)}


def test_cells_become_classes_of_the_file_in_graph_mode() -> None:
    # sequence_length has no Keras RNN form (TF120): graph mode stays.
    result = rewrite(
        "cell = tf.contrib.rnn.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(4), tf.contrib.rnn.GRUCell(3)])",
        "tf.nn.dynamic_rnn(cell, x, sequence_length=[3, 2], dtype=tf.float32)",
    )
    assert "cell = MultiRNNCell([BasicLSTMCell(4), GRUCell(3)])" in result.code
    assert "out, st = tf.compat.v1.nn.dynamic_rnn(cell, x, sequence_length=[3, 2], dtype=tf.float32)" in result.code
    assert defined_classes(result.code) == {
        "RNNCellTF1",
        "BasicLSTMCell",
        "GRUCell",
        "MultiRNNCell",
    }
    assert (
        "import collections\n" in result.code
        and "tf.compat.v1.disable_eager_execution()" in result.code
    )
    assert "rnn_cell.BasicLSTMCell" not in result.code and "contrib" not in result.code
    assert result.level == "partial"
    assert [f.line for f in result.findings if f.rule == "TF118"] == [3, 3, 3]
    check_noop(result.code)


def test_only_the_cells_used_are_defined() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.BasicRNNCell(5, activation=tf.nn.relu)")
    assert "cell = BasicRNNCell(5, activation=tf.nn.relu)" in result.code
    assert defined_classes(result.code) == {"RNNCellTF1", "BasicRNNCell"}
    assert "collections" not in result.code


def test_positional_arguments_after_the_units_go_by_keyword_and_tf1_defaults_go() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.BasicLSTMCell(4, 0.5, True)")
    assert "cell = BasicLSTMCell(4, forget_bias=0.5)" in result.code
    result = rewrite(
        "cell = tf.nn.rnn_cell.LSTMCell(num_units=4, use_peepholes=False, state_is_tuple=True)"
    )
    assert "cell = LSTMCell(num_units=4)" in result.code


def test_a_cell_with_arguments_the_class_lacks_stays_as_written() -> None:
    result = rewrite("cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True)")
    assert "tf.compat.v1.nn.rnn_cell.LSTMCell(4, use_peepholes=True)" in result.code
    assert not defined_classes(result.code)
    assert not [f for f in result.findings if f.rule == "TF118"]


def test_contrib_static_rnn_is_tf_nn_static_rnn() -> None:
    result = rewrite(
        "cell = tf.contrib.rnn.BasicRNNCell(5)",
        "tf.contrib.rnn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)",
    )
    assert (
        "out, st = tf.compat.v1.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)"
        in result.code
    )


def test_deselected_rule_leaves_the_cells_under_compat() -> None:
    source = PROGRAM.format(
        cell_line="cell = tf.nn.rnn_cell.GRUCell(3)",
        loop="tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)",
    )
    result = rewrite_source(source, config=RewriteConfig(ignore=frozenset({"TF118", "TF120"})))
    assert "tf.compat.v1.nn.rnn_cell.GRUCell(3)" in result.code and not defined_classes(result.code)


def test_a_module_with_a_name_the_classes_take_keeps_the_cells_under_compat() -> None:
    source = "class GRUCell(object):\n    pass\n\n\n" + PROGRAM.format(
        cell_line="cell = tf.nn.rnn_cell.GRUCell(3)",
        loop="tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)",
    )
    result = rewrite_source(source)
    assert "tf.compat.v1.nn.rnn_cell.GRUCell(3)" in result.code
    assert defined_classes(result.code) == {"GRUCell"}


def test_an_import_of_contrib_rnn_goes_once_nothing_reads_it() -> None:
    source = PROGRAM.format(
        cell_line="cell = rnn.BasicLSTMCell(4)",
        loop="rnn.static_rnn(cell, tf.unstack(x, 3, 1), dtype=tf.float32)",
    ).replace(
        "import tensorflow as tf\n", "import tensorflow as tf\nfrom tensorflow.contrib import rnn\n"
    )
    result = rewrite_source(source)
    assert "contrib" not in result.code and "cell = BasicLSTMCell(4)" in result.code
    kept = source.replace("cell = rnn.BasicLSTMCell(4)", "cell = rnn.LSTMCell(4, num_proj=2)")
    assert "from tensorflow.contrib import rnn" in rewrite_source(kept).code
