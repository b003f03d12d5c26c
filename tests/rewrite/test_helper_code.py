"""The rewriter's own helpers are found in a rewrite node for node, and nothing else is."""

from __future__ import annotations

import pytest

from migrate.api import rewrite_source
from migrate.helper_code import helper_lines

MNIST = """\
import numpy as onp
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data


def load():
    return input_data.read_data_sets("/tmp/data", one_hot=True)
"""

RNN = """\
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 3])
cell = tf.nn.rnn_cell.BasicLSTMCell(4)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(outputs, {x: [[[1.0, 2.0, 3.0]] * 5]}).shape)
"""


def _definitions(code: str, names: tuple[str, ...]) -> set[int]:
    """The lines of the named top-level classes in ``code``."""
    import ast

    tree = ast.parse(code)
    return {line for stmt in tree.body if isinstance(stmt, ast.ClassDef) and stmt.name in names
            for line in range(stmt.lineno, stmt.end_lineno + 1)}


@pytest.mark.parametrize(("source", "names"), [
    (MNIST, ("MnistSplit", "Mnist")),
    (RNN, ("RNNCellTF1", "BasicLSTMCell")),
])
def test_the_emitted_helpers_are_found_whole(source: str, names: tuple[str, ...]) -> None:
    code = rewrite_source(source).code
    found = _definitions(code, names)
    assert found and helper_lines(code) >= found
    assert not helper_lines(code) & {i + 1 for i, line in enumerate(code.splitlines())
                                    if line.startswith(("def load", "outputs", "print"))}


def test_a_helper_changed_in_one_token_is_not_the_rewriters() -> None:
    code = rewrite_source(MNIST).code
    changed = code.replace("self._index = batch_size - len(rest_images)",
                           "self._index = batch_size - len(rest_images) + 1")
    assert changed != code
    assert not helper_lines(changed) & _definitions(changed, ("MnistSplit",))
    assert helper_lines(changed) >= _definitions(changed, ("Mnist",))


def test_a_file_that_does_not_parse_has_no_helpers() -> None:
    assert helper_lines("def (:\n") == frozenset()
