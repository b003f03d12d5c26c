"""Node classification: what each top-level assignment builds, as a node of the graph
model (move/classify.py)."""

import libcst as cst
import pytest
from helpers import move_state

from migrate.move import classify
from migrate.move.state import Item
from migrate.report import Unsupported
from migrate.scoped_models import ModelBuilder


def kinds(source: str) -> list[str | None]:
    """The kind of node each assignment of `source` adds, in order (None: plain Python)."""
    move = move_state(source)
    move.models = ModelBuilder(move.aliases, move.lines, move.findings, module=move.module)
    found: list[str | None] = []
    for stmt in move.module.body:
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign):
            node = classify.classify(move, stmt.body[0], stmt, Item(stmt, line=move.line(stmt)))
            found.append(node.kind if node is not None else None)
    return found


def test_a_training_graph_is_placeholders_variables_tensors_an_optimizer_and_a_train_op() -> None:
    assert kinds(
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 2])\n"
        "w = tf.Variable(tf.zeros([2, 1]))\n"
        "y = tf.matmul(x, w)\n"
        "loss = tf.reduce_mean(y)\n"
        "opt = tf.train.GradientDescentOptimizer(0.1)\n"
        "train = opt.minimize(loss)\n"
        "steps = 3\n"
    ) == ["placeholder", "variable", "tensor", "tensor", "optimizer", "train", None]


def test_a_variable_made_from_a_computed_tensor_is_refused() -> None:
    with pytest.raises(Unsupported, match="w is created from a computed tensor"):
        kinds(
            "import tensorflow as tf\n"
            "x = tf.placeholder(tf.float32, [2])\n"
            "w = tf.Variable(x * 2)\n"
        )


def test_a_graph_value_assigned_to_an_attribute_is_refused() -> None:
    with pytest.raises(Unsupported, match="assigned to an attribute or subscript"):
        kinds("import tensorflow as tf\nconfig.x = tf.constant(1.0)\n")
