"""An unscoped model function's groups of tf.Variable weights become its layers, and only
where each group is weights then the ops reading them."""

from __future__ import annotations

import textwrap

import libcst as cst

from migrate.api import rewrite_source
from migrate.imports import collect_aliases
from migrate.layer_groups import group_layers
from migrate.report import Finding

MODEL = """\
import tensorflow as tf
def forward(x, train):
    conv1_w = tf.Variable(tf.zeros([3, 3, 1, 2]))
    conv1_b = tf.Variable(tf.zeros([2]))
    relu1 = tf.nn.relu(tf.nn.conv2d(x, conv1_w, [1, 1, 1, 1], 'SAME') + conv1_b)
    pool1 = tf.nn.max_pool(relu1, [1, 2, 2, 1], [1, 2, 2, 1], 'SAME')
    # flatten
    flat = tf.reshape(pool1, [-1, 18])
    w = tf.Variable(tf.zeros([18, 3]))
    y = tf.matmul(flat, w)
    if train: y = tf.nn.dropout(y, 0.5)
    return y
"""


def _grouped(source: str) -> tuple[str, list[Finding]]:
    module = cst.parse_module(textwrap.dedent(source))
    findings: list[Finding] = []
    return group_layers(module, collect_aliases(module), {}, findings).code, findings


def test_each_group_of_weights_and_the_ops_reading_them_is_a_scope() -> None:
    code, findings = _grouped(MODEL)
    assert code.splitlines()[1:14] == [
        "def forward(x, train):",
        "    with tf.variable_scope('conv1'):",
        "        conv1_w = tf.Variable(tf.zeros([3, 3, 1, 2]))",
        "        conv1_b = tf.Variable(tf.zeros([2]))",
        "        relu1 = tf.nn.relu(tf.nn.conv2d(x, conv1_w, [1, 1, 1, 1], 'SAME') + conv1_b)",
        "    pool1 = tf.nn.max_pool(relu1, [1, 2, 2, 1], [1, 2, 2, 1], 'SAME')",
        "    # flatten",
        "    flat = tf.reshape(pool1, [-1, 18])",
        "    with tf.variable_scope('layer2'):",
        "        w = tf.Variable(tf.zeros([18, 3]))",
        "        y = tf.matmul(flat, w)",
        "    if train: y = tf.nn.dropout(y, 0.5)",
        "    return y",
    ]
    assert [f.message for f in findings] == ["forward(): its 2 groups of weights and the ops reading them are its layers"]


def test_one_group_is_a_layer_function_left_as_it_is() -> None:
    source = "import tensorflow as tf\ndef dense(x):\n    w = tf.Variable(tf.zeros([2, 3]))\n    return tf.matmul(x, w)\n"
    assert _grouped(source)[0] == source


def test_a_function_with_scopes_of_its_own_is_left_as_it_is() -> None:
    source = MODEL.replace("    w = tf.Variable", "    with tf.name_scope('out'):\n        w = tf.Variable")
    assert "variable_scope" not in _grouped(source)[0]


def test_returned_weights_are_no_layers_own() -> None:
    source = MODEL.replace("    return y\n", "    return y, w\n")
    assert "variable_scope" not in _grouped(source)[0]


def test_a_name_bound_to_two_weights_keeps_the_function() -> None:
    source = MODEL.replace("conv1_b", "w")
    assert "variable_scope" not in _grouped(source)[0]


def test_a_weight_no_statement_reads_keeps_the_function() -> None:
    source = MODEL.replace("    y = tf.matmul(flat, w)\n", "    y = tf.matmul(flat, flat)\n")
    assert "variable_scope" not in _grouped(source)[0]


PROGRAM = """\
import numpy as np
import tensorflow as tf


def get_weight(shape, regularizer):
    w = tf.Variable(tf.constant(0.1, shape=shape))
    if regularizer != None: tf.add_to_collection('losses', tf.contrib.layers.l2_regularizer(regularizer)(w))
    return w


def forward(x, regularizer):
    w1 = get_weight([4, 3], regularizer)
    h = tf.nn.relu(tf.matmul(x, w1))
    w2 = get_weight([3, 2], regularizer)
    return tf.matmul(h, w2)


def train():
    x = tf.placeholder(tf.float32, [None, 4])
    y = forward(x, 0.01)
    loss = tf.reduce_sum(y) + tf.add_n(tf.get_collection('losses'))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            print(sess.run([step, loss], {x: np.ones([2, 4], np.float32)})[1])
"""


def test_a_model_of_variable_helpers_becomes_a_keras_model() -> None:
    result = rewrite_source(PROGRAM)
    assert result.level == "idiomatic", result.findings
    code = str(result.code)
    assert "class Forward(tf.keras.Model)" in code and code.count("(tf.keras.layers.Layer)") == 2
    # the scale the helper was given is the weights' regularizer where it is not None, made once
    assert code.count("self.regularizer = tf.keras.regularizers.L2(0.5 * regularizer) if regularizer != None else None") == 2
    assert code.count("regularizer=self.regularizer") == 2
    assert "add_to_collection" not in code and "get_collection" not in code
    assert "tf.add_n(forward.losses)" in code
    # the layer's value the function returned is named, and returned by the model
    assert "        output = tf.matmul(h, self.w2)\n        return output\n" in code


def test_a_weight_read_after_its_group_keeps_the_function() -> None:
    # tied weights: the decoder reads the encoder's weight, which no one layer owns
    source = MODEL.replace("    y = tf.matmul(flat, w)\n", "    y = tf.matmul(flat, w) + tf.reduce_sum(conv1_w)\n")
    assert "variable_scope" not in _grouped(source)[0]


def test_a_group_no_layer_can_hold_is_named_by_its_weights() -> None:
    # the second group reads h besides h2: a layer takes one input, and the user wrote no scope
    source = PROGRAM.replace("    return tf.matmul(h, w2)\n", "    return tf.matmul(h, w2) + tf.matmul(x, tf.ones([4, 2]))\n")
    result = rewrite_source(source)
    assert result.level == "partial"
    blocked = [f.message for f in result.findings if "keeps TF1 graph semantics" in f.message]
    assert blocked and "the layer of w2" in blocked[0] and "variable_scope" not in blocked[0], blocked
