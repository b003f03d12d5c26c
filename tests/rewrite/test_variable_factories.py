"""Functions that create variables and return them: what a call gives back, and course-style
`initialize_parameters()` made of get_variable calls."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from migrate.api import rewrite_source
from migrate.imports import collect_aliases
from migrate.variable_factories import DICT, LIST, SINGLE, get_variable_factory, returned_structure


def _function(source: str) -> tuple[cst.FunctionDef, object]:
    module = cst.parse_module("import tensorflow as tf\n" + textwrap.dedent(source))
    return module.body[1], collect_aliases(module)  # type: ignore[return-value]


@pytest.mark.parametrize(("source", "structure"), [
    ("def f():\n    w = tf.Variable(1.0)\n    return w\n", SINGLE),
    ("def f(shape):\n    return tf.Variable(tf.zeros(shape))\n", SINGLE),
    ("def f():\n    w = tf.Variable(1.0)\n    b = tf.Variable(0.0)\n    p = {'w': w, 'b': b}\n    return p\n", DICT),
    ("def f():\n    w = tf.Variable(1.0)\n    b = tf.Variable(0.0)\n    return [w, b]\n", LIST),
    # a tuple reads back as a tuple, a value computed from a variable is none, a name bound twice
    # or a return in a branch is not followed
    ("def f():\n    w = tf.Variable(1.0)\n    b = tf.Variable(0.0)\n    return w, b\n", None),
    ("def f():\n    w = tf.Variable(1.0)\n    return {'w': w * 2.0}\n", None),
    ("def f():\n    w = tf.Variable(1.0)\n    w = tf.Variable(2.0)\n    return w\n", None),
    ("def f(a):\n    w = tf.Variable(1.0)\n    if a:\n        return w\n    return w\n", None),
])
def test_what_a_factory_returns(source: str, structure: str | None) -> None:
    func, aliases = _function(source)
    assert returned_structure(func, aliases) == structure  # type: ignore[arg-type]


def test_a_parameterless_get_variable_factory_makes_tf_variables() -> None:
    func, aliases = _function(
        "def init():\n    w = tf.get_variable('w', [2], initializer=tf.zeros_initializer())\n    return {'w': w}\n")
    findings: list = []
    made = get_variable_factory(func, aliases, {}, findings)  # type: ignore[arg-type]
    assert made is not None
    assert cst.Module([made]).code == "def init():\n    w = tf.Variable(tf.zeros([2]), name='w')\n    return {'w': w}\n"
    assert [f.message for f in findings] == [(
        "init(): its variables created with tf.Variable, new ones each call as TF1's get_variable made "
        "them outside a reusing scope")]


@pytest.mark.parametrize("source", [
    "def init(n):\n    w = tf.get_variable('w', [n])\n    return w\n",  # an argument: a layer's input
    "def init():\n    with tf.variable_scope('s'):\n        w = tf.get_variable('w', [2])\n    return w\n",
    "def init():\n    w = tf.get_variable('w', [2])\n    return w * 2.0\n",
])
def test_other_get_variable_functions_are_no_factories(source: str) -> None:
    func, aliases = _function(source)
    assert get_variable_factory(func, aliases, {}, []) is None  # type: ignore[arg-type]


def test_a_factory_returning_a_structure_not_followed_keeps_graph_mode() -> None:
    result = rewrite_source(textwrap.dedent("""\
        import tensorflow as tf


        def init():
            w = tf.Variable(1.0)
            b = tf.Variable(0.0)
            return w, b


        params = init()
        loss = tf.square(params[0] - 3.0) + tf.square(params[1])
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            print(sess.run(loss))
        """))
    assert result.level == "partial"
    assert any("init() returns its variables in a structure the rewrite does not follow" in f.message
               for f in result.findings)
