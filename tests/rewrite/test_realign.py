"""Continuation lines move with the bracket a rewrite moved, and only those."""

from __future__ import annotations

from migrate.api import rewrite_source
from migrate.realign import realign_continuations


def test_a_line_under_a_renamed_call_moves_with_its_bracket() -> None:
    source = ("h = tf.layers.dense(x, 5,\n"
              "                    name='h')\n")
    code = ("h = tf1_dense(x, 5,\n"
            "                    name='h')\n")
    assert realign_continuations(source, code) == "h = tf1_dense(x, 5,\n              name='h')\n"


def test_a_bracket_on_a_moved_line_moves_its_own_lines_too() -> None:
    source = ("y = tf.nn.rnn_cell.MultiRNNCell([a,\n"
              "                                 f(b,\n"
              "                                   c)])\n")
    code = ("y = MultiRNNCell([a,\n"
            "                                 f(b,\n"
            "                                   c)])\n")
    assert realign_continuations(source, code) == "y = MultiRNNCell([a,\n                  f(b,\n                    c)])\n"


def test_the_users_own_layout_and_strings_stay() -> None:
    source = ('z = f(a,\n'
              '    b)\n'
              's = g("""x(\n'
              '   y""")\n')
    code = source.replace("f(", "ff(")
    assert realign_continuations(source, code) == code


def test_a_rewrite_keeps_the_arguments_of_a_renamed_call_under_its_bracket() -> None:
    result = rewrite_source("import tensorflow as tf\ny = tf.log(tf.ones([2]) +\n           1.0)\nprint(y)\n")
    assert result.code == "import tensorflow as tf\ny = tf.math.log(tf.ones([2]) +\n                1.0)\nprint(y)\n"


def test_rows_are_counted_as_tokenize_counts_them() -> None:
    # a U+2028 inside a string ends no line for Python: the line after it is still the one moved
    source = 's = "a\u2028b"\nh = tf.layers.dense(x,\n                    y)\nt = """\n      q"""\n'
    code = source.replace("tf.layers.dense", "tf1_dense")
    assert realign_continuations(source, code) == code.replace("                    y)", "              y)")
