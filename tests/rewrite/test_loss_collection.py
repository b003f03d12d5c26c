"""A weight helper's 'losses' collection read as its variables' regularizers, and only when
that is what TF1 computes."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from migrate.api import rewrite_source
from migrate.imports import collect_aliases
from migrate.loss_collection import losses_as_regularizers

BEFORE = (Path(__file__).resolve().parents[2] / "fixtures" / "programs" / "weight_helper_losses" / "before.py").read_text()
READ = "loss = cross_entropy_mean + tf.add_n(tf.get_collection('losses'))"
TAKEN = "'losses' collection entries are its variables' regularizers"


def _taken(source: str) -> bool:
    """Does the pass read the collection as regularizers (it changes the module only then)?"""
    module = cst.parse_module(source)
    return losses_as_regularizers(module, collect_aliases(module), {}, []) is not module


def test_the_pass_takes_the_helper() -> None:
    assert _taken(BEFORE)


def test_helper_penalties_become_the_layers_regularizers() -> None:
    result = rewrite_source(BEFORE)
    assert result.level == "idiomatic", result.findings
    assert result.code.count("regularizer=self.regularizer") == 2
    assert "tf.add_n(inference.losses)" in result.code
    assert "get_collection" not in result.code and "add_to_collection" not in result.code
    assert any(TAKEN in f.message for f in result.findings)


def test_an_entry_added_outside_the_helper_keeps_the_collection() -> None:
    # the collection then holds a cross entropy too: no regularizer stands for it
    source = BEFORE.replace(READ, "tf.add_to_collection('losses', cross_entropy_mean)\n" + READ)
    assert not _taken(source)


def test_reused_variables_keep_the_collection() -> None:
    # a reused get_variable adds no penalty, the helper's add_to_collection one per call
    source = BEFORE.replace("with tf.variable_scope('layer2'):", "with tf.variable_scope('layer2', reuse=tf.AUTO_REUSE):")
    assert not _taken(source)


def test_another_regularizer_keeps_the_collection() -> None:
    # REGULARIZATION_LOSSES would then hold more than the 'losses' collection did
    source = BEFORE.replace(READ, READ + " + tf.losses.get_regularization_loss()")
    assert not _taken(source)


def test_a_penalty_of_something_else_keeps_the_collection() -> None:
    source = BEFORE.replace("regularizer(weights))", "regularizer(weights * 2.0))")
    assert not _taken(source)


def test_the_add_may_follow_the_guard_on_its_line() -> None:
    # `if regularizer != None: tf.add_to_collection(...)`, as the MNIST chapters write it
    source = BEFORE.replace("if regularizer != None:\n        tf.add_to_collection", "if regularizer != None: tf.add_to_collection")
    assert source != BEFORE and _taken(source)
    assert rewrite_source(source).code == rewrite_source(BEFORE).code


def test_a_second_statement_after_the_guard_keeps_the_collection() -> None:
    source = BEFORE.replace("if regularizer != None:\n        tf.add_to_collection(",
                            "if regularizer != None: print(weights); tf.add_to_collection(")
    assert source != BEFORE and not _taken(source)


def _held(source: str) -> dict[str, dict[str, str] | None]:
    """Each call of `inference` -> the regularizers its names hold there."""
    from migrate.loss_collection import regularizers_at_calls

    module = cst.parse_module(source)
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "inference":
                found.append(node)

    module.visit(Calls())
    held = regularizers_at_calls(module, collect_aliases(module), {"RATE": "0.01"})
    return {cst.Module([]).code_for_node(c): held.get(id(c)) for c in found}


def test_a_module_regularizer_of_a_constant_is_written_with_its_literal() -> None:
    assert _held(
        "import tensorflow as tf\n"
        "regularizer = tf.contrib.layers.l2_regularizer(RATE)\n"
        "y = inference(x, regularizer)\n"
    ) == {"inference(x, regularizer)": {"regularizer": "tf.contrib.layers.l2_regularizer(0.01)"}}


def test_a_module_regularizer_does_not_hold_where_a_function_binds_its_name() -> None:
    assert _held(
        "import tensorflow as tf\n"
        "regularizer = tf.contrib.layers.l2_regularizer(0.1)\n"
        "def build(x, regularizer):\n"
        "    return inference(x, regularizer)\n"
        "def main(x):\n"
        "    return inference(x + 1, regularizer)\n"
    ) == {
        "inference(x, regularizer)": None,
        "inference(x + 1, regularizer)": {"regularizer": "tf.contrib.layers.l2_regularizer(0.1)"},
    }


def test_a_function_local_regularizer_holds_at_the_calls_of_that_function_only() -> None:
    assert _held(
        "import tensorflow as tf\n"
        "def train(x):\n"
        "    regularizer = tf.contrib.layers.l2_regularizer(RATE)\n"
        "    return inference(x, regularizer)\n"
        "def evaluate(x, regularizer):\n"
        "    return inference(x * 2, regularizer)\n"
    ) == {
        "inference(x, regularizer)": {"regularizer": "tf.contrib.layers.l2_regularizer(0.01)"},
        "inference(x * 2, regularizer)": None,
    }


def test_a_local_regularizer_bound_twice_or_of_a_computed_rate_is_no_constant() -> None:
    assert _held(
        "import tensorflow as tf\n"
        "def train(x, rate):\n"
        "    regularizer = tf.contrib.layers.l2_regularizer(RATE)\n"
        "    if x is None:\n"
        "        regularizer = None\n"
        "    a = inference(x, regularizer)\n"
        "    other = tf.contrib.layers.l2_regularizer(rate)\n"
        "    return inference(a, other)\n"
    ) == {"inference(x, regularizer)": None, "inference(a, other)": None}


_VARIABLE_HELPER = (Path(__file__).resolve().parents[2] / "fixtures" / "programs" / "variable_helper_penalties"
                    / "before.py").read_text()
_LISTED = "its 'losses' collection entries listed where the collection is read"


def test_variable_helper_penalties_are_listed_where_the_collection_is_read() -> None:
    result = rewrite_source(_VARIABLE_HELPER)
    assert result.level == "idiomatic", result.findings
    assert "[tf.keras.regularizers.L2(0.5 * 0.01)(w1), tf.keras.regularizers.L2(0.5 * 0.01)(w2)]" in result.code
    assert "get_collection" not in result.code and "add_to_collection" not in result.code
    assert any(_LISTED in f.message for f in result.findings)


def test_a_guarded_helper_given_none_adds_no_entry() -> None:
    source = _VARIABLE_HELPER.replace(
        "    tf.add_to_collection('losses', tf.contrib.layers.l2_regularizer(regularizer)(w))",
        "    if regularizer != None:\n        tf.add_to_collection('losses', tf.contrib.layers.l2_regularizer(regularizer)(w))",
    ).replace("w2 = get_weight([11, 1], 0.01)", "w2 = get_weight([11, 1], None)")
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert "tf.add_n([tf.keras.regularizers.L2(0.5 * 0.01)(w1)])" in result.code


def test_a_variable_helper_called_in_a_loop_keeps_the_collection() -> None:
    # each pass added an entry: how many is not known before it runs
    source = _VARIABLE_HELPER.replace(
        "w2 = get_weight([11, 1], 0.01)", "for _ in range(2):\n    w2 = get_weight([11, 1], 0.01)")
    result = rewrite_source(source)
    assert not any(_LISTED in f.message for f in result.findings)
    assert "get_collection('losses')" in result.code


def test_a_read_before_a_helper_call_keeps_the_collection() -> None:
    source = _VARIABLE_HELPER.replace("y1 = tf.nn.relu", "early = tf.add_n(tf.get_collection('losses'))\ny1 = tf.nn.relu")
    result = rewrite_source(source)
    assert not any(_LISTED in f.message for f in result.findings)


BLOCKS = (Path(__file__).resolve().parents[2] / "fixtures" / "mutants" / "block_penalty_dropped" / "original.py").read_text()


def test_entries_added_right_after_their_weights_in_model_blocks_become_regularizers() -> None:
    result = rewrite_source(BLOCKS)
    assert result.level == "idiomatic", result.findings
    assert result.code.count("regularizer=self.regularizer") == 2
    assert "get_collection" not in result.code and "add_to_collection" not in result.code
    # the comment on the removed add stays, above the weight it regularizes
    assert "# the output layer's penalty\n        self.fc2_weights = self.add_weight(" in result.code


def test_an_entry_not_right_after_its_weight_keeps_the_collection() -> None:
    # between the two, the name could be bound again: the entry is then not the weight's penalty
    moved = BLOCKS.replace(
        "        if regularizer != None: tf.add_to_collection('losses', regularizer(fc1_weights))\n"
        "        fc1_biases = tf.get_variable(\"bias\", [FC_SIZE], initializer=tf.constant_initializer(0.1))\n",
        "        fc1_biases = tf.get_variable(\"bias\", [FC_SIZE], initializer=tf.constant_initializer(0.1))\n"
        "        if regularizer != None: tf.add_to_collection('losses', regularizer(fc1_weights))\n",
    )
    assert moved != BLOCKS
    assert not _taken(moved)


def test_entries_never_read_still_become_regularizers() -> None:
    # an eval script passes no regularizer and reads no 'losses': the helper is a weight wrapper
    source = BEFORE.replace(READ, "loss = cross_entropy_mean")
    assert source != BEFORE
    module = cst.parse_module(source)
    findings: list = []
    assert losses_as_regularizers(module, collect_aliases(module), {}, findings) is not module
    assert any("nothing reads the 'losses' collection" in f.message for f in findings)


_SCALED = """\
import tensorflow as tf
def get_weight(shape, regularizer):
    w = tf.Variable(tf.zeros(shape))
    if regularizer != None: tf.add_to_collection('losses', tf.contrib.layers.l2_regularizer(regularizer)(w))
    return w
def forward(x, regularizer):
    return tf.matmul(x, get_weight([2, 2], regularizer))
"""


def test_a_variable_helper_given_a_scale_regularizes_its_weight_where_the_scale_is_given() -> None:
    module = cst.parse_module(_SCALED)
    code = losses_as_regularizers(module, collect_aliases(module), {}, []).code
    assert ("w = tf.Variable(tf.zeros(shape), regularizer=tf.contrib.layers.l2_regularizer(regularizer) "
            "if regularizer != None else None)") in code
    assert "add_to_collection" not in code


def test_a_variable_helper_called_at_the_top_level_is_no_layer_weight() -> None:
    # TF1's Variable takes no regularizer: only a layer's weight may carry it
    source = _SCALED + "w1 = get_weight([2, 2], 0.1)\n"
    assert not _taken(source)
