"""Literal name scopes inside a layer function open into its body, and only those that name
nothing but ops and tf.Variables."""

from __future__ import annotations

import textwrap

import libcst as cst
from helpers import check_transformed

from migrate.imports import collect_aliases
from migrate.layer_name_scopes import open_name_scopes
from migrate.report import Finding

PROGRAM = """\
import tensorflow as tf
def layer(inputs, size):
    with tf.name_scope('layer'):
        with tf.name_scope('weights'):  # the kernel
            w = tf.Variable(tf.zeros([2, size]) + 0.5, name='w')
            # the kernel's end
        out = tf.matmul(inputs, w)
        return out
x = tf.placeholder(tf.float32, [None, 2])
y = layer(x, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: [[1.0, 2.0]]}))
"""


def _opened(source: str) -> tuple[str, list[Finding]]:
    module = cst.parse_module(textwrap.dedent(source))
    findings: list[Finding] = []
    return open_name_scopes(module, collect_aliases(module), {}, findings).code, findings


def test_the_scopes_open_and_their_comments_stay() -> None:
    code, findings = _opened(PROGRAM)
    assert "name_scope" not in code.split("x = ")[0]
    assert code.splitlines()[1:7] == [
        "def layer(inputs, size):",
        "    # the kernel",
        "    w = tf.Variable(tf.zeros([2, size]) + 0.5, name='w')",
        "    # the kernel's end",
        "    out = tf.matmul(inputs, w)",
        "    return out",
    ]
    assert [f.message for f in findings] == [
        "name scopes of layer function layer opened: its Keras layer names its weights"]


def test_the_layer_function_becomes_a_keras_layer() -> None:
    check_transformed(PROGRAM, """\
        import tensorflow as tf
        class Layer(tf.keras.layers.Layer):
            def __init__(self, size, **kwargs):
                super().__init__(**kwargs)
                self.size = size

            def build(self, input_shape):
                # the kernel
                self.w = self.add_weight(
                    name='w', shape=[2, self.size], initializer=lambda shape, dtype: tf.zeros(shape) + 0.5
                )

            def call(self, inputs):
                # the kernel's end
                out = tf.matmul(inputs, self.w)
                return out


        y_layer = Layer(3)


        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def compute_y(x):
            y = y_layer(x)
            return y


        print(compute_y([[1.0, 2.0]]).numpy())
        """)


def test_a_scope_bound_with_as_is_kept() -> None:
    # its name is read: `name=scope` names an op after it
    source = PROGRAM.replace("with tf.name_scope('layer'):", "with tf.name_scope('layer') as scope:").replace(
        "out = tf.matmul(inputs, w)", "out = tf.matmul(inputs, w, name=scope)")
    code, findings = _opened(source)
    assert code == source and not findings


def test_a_scope_around_a_summary_is_kept() -> None:
    # the scope prefixes the summary's tag
    source = PROGRAM.replace("        out = tf.matmul", "        tf.summary.histogram('w', w)\n        out = tf.matmul")
    code, findings = _opened(source)
    assert code == source and not findings


def test_a_function_that_is_no_layer_once_opened_is_kept() -> None:
    # the weight's shape reads nothing of the call: a variable factory, not a layer
    source = PROGRAM.replace("tf.zeros([2, size])", "tf.zeros([2, 3])")
    code, findings = _opened(source)
    assert code == source and not findings


def test_scopes_that_keep_two_weights_of_one_name_apart_are_kept() -> None:
    # `w` in scope 'first', another `w` in scope 'second': a layer has one attribute per name
    source = PROGRAM.replace(
        "        out = tf.matmul(inputs, w)\n",
        "        with tf.name_scope('second'):\n"
        "            w = tf.Variable(tf.zeros([size, size]) + 0.25, name='w')\n"
        "        out = tf.matmul(tf.matmul(inputs, w), w)\n",
    )
    code, findings = _opened(source)
    assert source != PROGRAM and code == source and not findings
