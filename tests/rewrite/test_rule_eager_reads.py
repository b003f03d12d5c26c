"""TF117: graph objects read outside a session run become eager reads, or the file stays TF1."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import squeezed

from migrate.api import rewrite_source

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"

HEADER = "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"
RUN = "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"


def rewrite(body: str):
    return rewrite_source(HEADER + body)


def test_printed_tensor_is_computed_by_a_function_with_an_info_finding() -> None:
    result = rewrite(
        "v = tf.Variable(2.0)\ny = v * 3.0\nprint(y)\n" + RUN + "    print(sess.run(y))\n"
    )
    assert result.level == "idiomatic"
    assert "print(compute_y())\n" in result.code and "print(compute_y().numpy())\n" in result.code
    info = [f for f in result.findings if f.rule == "TF117" and f.kind == "info"]
    assert [f.line for f in info] == [5] and "computed value" in info[0].message


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("x = tf.placeholder(tf.float32)\ny = x * 2.0\nprint(y)\n", "needs x fed"),
        ("v = tf.Variable(2.0)\ny = v + tf.random_normal([])\nprint(y)\n", "random"),
        ("v = tf.Variable(2.0)\ny = tf.assign_add(v, 1.0)\nprint(y)\n", "updates"),
        ("v = tf.Variable(2.0)\ny = v * 3.0\nprint(y.name)\n", "used outside a session run"),
    ],
)
def test_tensors_that_cannot_be_computed_there_keep_the_file_in_tf1(body: str, why: str) -> None:
    result = rewrite(body + RUN + "    print(sess.run(y))\n")
    assert result.level == "partial"
    assert why in result.fallback.message


def test_keras_variables_listed_by_name_print_their_paths() -> None:
    body = (
        "x = tf.placeholder(tf.float32, [None, 2])\nh = tf.layers.dense(x, 3)\n"
        "print([v.name for v in tf.global_variables() if not v.name.startswith('x')])\n"
    )
    result = rewrite_source(
        "import tensorflow as tf\n" + body + RUN + "    print(sess.run(h, {x: [[1.0, 2.0]]}))\n"
    )
    assert result.level == "idiomatic"
    # A Keras variable's name is its leaf; TF1's scoped name is its path.
    assert (
        '[f"{v.path}:0" for v in h_layer.variables if not f"{v.path}:0".startswith(' in result.code
    )


@pytest.mark.parametrize(
    ("comprehension", "why"),
    [
        ("[v.name for v in tf.global_variables()]", "names of TF1 and Keras variables"),
        ("[(v, v.name) for v in tf.global_variables()]", "names of Keras variables"),
    ],
)
def test_names_not_read_from_keras_variables_alone_keep_the_file_in_tf1(
    comprehension: str, why: str
) -> None:
    body = (
        "x = tf.placeholder(tf.float32, [None, 2])\nw = tf.Variable(1.0, name='w')\nh = tf.layers.dense(x * w, 3)\n"
        f"print({comprehension})\n"
    )
    result = rewrite_source(
        "import tensorflow as tf\n" + body + RUN + "    print(sess.run(h, {x: [[1.0, 2.0]]}))\n"
    )
    assert result.level == "partial"
    assert why in result.fallback.message


def test_plain_variables_are_listed_in_creation_order_wherever_read() -> None:
    body = "a = tf.Variable(1.0, name='a')\nb = tf.Variable(2, trainable=False, name='b')\ny = a * 2.0\n"
    result = rewrite(
        body
        + "for v in tf.global_variables():\n    print(v.name)\n"
        + RUN
        + "    print(sess.run(y))\n"
    )
    assert result.level == "idiomatic"
    assert "for v in [a, b]:\n" in result.code


def test_global_variables_after_a_train_op_keep_the_file_in_tf1() -> None:
    body = (
        "w = tf.Variable(1.0)\nloss = w * w\ntrain = tf.train.AdamOptimizer(0.1).minimize(loss)\n"
        "print(len(tf.global_variables()))\n"
    )
    result = rewrite(body + RUN + "    sess.run(train)\n")
    assert result.level == "partial"
    assert "optimizer slots" in result.fallback.message


@pytest.mark.parametrize("name", ["g08_variable_scope_tf1.py", "g10_gradients_tf1.py"])
def test_seed_programs_reading_the_graph_are_idiomatic(name: str) -> None:
    result = rewrite_source((SEEDS / name).read_text(encoding="utf-8"))
    assert result.level == "idiomatic"
    assert any(f.rule == "TF117" and f.kind == "info" for f in result.findings)


def test_a_function_listing_keras_variables_builds_them_on_entry() -> None:
    source = (
        "import numpy as np\nimport tensorflow as tf\n\n"
        "x = tf.placeholder(tf.float32, [None, 4])\nh = tf.layers.dense(x, 3)\nv = tf.Variable(2.0)\n\n"
        "def report():\n"
        "    print(len(tf.trainable_variables()))\n"
        "    print(sess.run(h, {x: np.ones([1, 4])}).shape)\n\n"
        "sess = tf.Session()\nsess.run(tf.global_variables_initializer())\nreport()\n"
    )
    result = rewrite_source(source)
    assert result.level == "idiomatic"
    assert (
        "def report():\n    compute_h.get_concrete_function()\n"
        "    print(len(h_layer.trainable_variables + [v]))\n" in result.code
    )


def test_parameter_count_reads_keras_shapes_and_tuple_op_is_fetched_as_tuple() -> None:
    """A Keras variable has a tuple `shape` and no `get_shape()`; `top_k` gives a tuple."""
    result = rewrite(
        "import numpy as np\n"
        "x = tf.placeholder(tf.float32, [None, 3])\n"
        "h = tf.layers.dense(x, 4, name='h')\n"
        "top = tf.nn.top_k(h, k=2)\n"
        + RUN
        + "    values, indices = sess.run(top, {x: np.ones([2, 3], np.float32)})\n"
        "    print(np.sum([np.prod(v.get_shape().as_list()) for v in tf.trainable_variables()]))\n"
    )
    assert result.level == "idiomatic", result.findings
    assert "np.prod(list(v.shape)) for v in h_layer.trainable_variables" in result.code
    assert squeezed("values, indices = tf.nest.map_structure(lambda t: t.numpy(), compute_top(") in squeezed(result.code)
