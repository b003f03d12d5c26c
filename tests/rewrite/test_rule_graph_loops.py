"""TF129: a Python loop creating variables and computing with them → variables listed once at
the top level, the computation replayed by the step function."""

import textwrap

from helpers import check_noop

from migrate.api import rewrite_source

PROGRAM = """\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
{body}
loss = tf.reduce_sum(tf.square(out))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([train, loss], feed_dict={{x: np.ones(3, np.float32)}})[1])
"""


def rewrite(body: str, level: str = "idiomatic"):
    result = rewrite_source(PROGRAM.format(body=textwrap.dedent(body)))
    assert result.level == level, result.findings
    if level == "idiomatic":
        check_noop(result.code)  # a second run changes nothing
    return result


def test_variables_listed_once_and_computation_replayed_in_the_step() -> None:
    code = rewrite("""\
        out = tf.Variable(0.0, name="bias")
        for i in range(1, 3):
            W = tf.Variable(0.5 * i, name="weight_%d" % i)
            out = tf.add(tf.multiply(tf.pow(x, i), W), out)
        """).code
    assert 'bias = tf.Variable(0.0, name="bias")\n' in code
    assert 'W_list = [tf.Variable(0.5 * i, name="weight_%d" % i) for i in range(1, 3)]\n' in code
    step = code[code.index("def train_step") :]
    assert "        out = bias\n        for i, W in zip(range(1, 3), W_list):\n" in step
    assert "tape.gradient(loss, [bias, *W_list])" in step
    assert "tf.Variable" not in step


def test_carried_unnamed_variable_takes_a_name_of_its_own() -> None:
    code = rewrite("""\
        sizes = [1.0, 2.0]
        out = tf.Variable(0.0)
        for s in sizes:
            scale = tf.Variable(s, name="scale")
            shift = tf.Variable(0.0, name="shift")
            out = out + scale * x + shift
        """).code
    assert "out_init = tf.Variable(0.0)\n" in code
    assert 'scale_list = [tf.Variable(s, name="scale") for s in sizes]\n' in code
    assert "for s, scale, shift in zip(sizes, scale_list, shift_list):" in code
    assert "out = out_init\n" in code


def test_tensor_carried_from_before_the_loop_is_replayed_first() -> None:
    code = rewrite("""\
        h = x * 2.0
        for i in range(2):
            v = tf.Variable(1.0, name="v%d" % i)
            h = h * v
        out = h
        """).code
    step = code[code.index("def train_step") :]
    assert step.index("h = x * 2.0") < step.index("for i, v in zip(range(2), v_list):")


def test_variable_made_from_what_the_loop_computes_stays_compat() -> None:
    result = rewrite(
        """\
        out = x
        for i in range(2):
            out = out * 2.0
            w = tf.Variable(tf.reduce_sum(out), name="w%d" % i)
        """,
        level="partial",
    )
    assert any(f.rule == "TF190" for f in result.findings)


def test_per_iteration_variable_read_after_the_loop_stays_compat() -> None:
    result = rewrite(
        """\
        out = x
        for i in range(2):
            w = tf.Variable(1.0, name="w%d" % i)
            out = out * w
        out = out + w
        """,
        level="partial",
    )
    assert not any(f.rule == "TF129" for f in result.findings)


def test_two_unnamed_variables_per_iteration_stay_compat() -> None:
    # Listing them one list each would create them in another order: TF1's Variable_<n> moves.
    result = rewrite(
        """\
        out = x
        for i in range(2):
            w = tf.Variable(1.0)
            b = tf.Variable(0.0)
            out = out * w + b
        """,
        level="partial",
    )
    assert not any(f.rule == "TF129" for f in result.findings)


def test_loop_variable_named_like_an_earlier_variable_stays_compat() -> None:
    # The step's loop would make `w` local before the earlier `w` is read in the same step.
    result = rewrite(
        """\
        w = tf.Variable(2.0, name="w")
        a = x * w
        out = a
        for i in range(2):
            w = tf.Variable(1.0, name="w%d" % i)
            out = out * w
        """,
        level="partial",
    )
    assert not any(f.rule == "TF129" for f in result.findings)


def test_loop_computing_without_variables_is_replayed_in_the_step() -> None:
    code = rewrite(
        'v = tf.Variable(1.0, name="v")\nout = x * v\nfor _ in range(3):\n    out = out * 2.0\n'
    ).code
    step = code[code.index("def train_step") :]
    assert "        out = x * v\n        for _ in range(3):\n            out = out * 2.0\n" in step
