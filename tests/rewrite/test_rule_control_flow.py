"""TF135: tf.cond / tf.while_loop in code AutoGraph converts → Python if / while."""

import textwrap

from helpers import check_noop

from migrate.api import rewrite_source

PROGRAM = """\
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
flag = tf.placeholder(tf.bool, [])
{body}
with tf.Session() as sess:
    print(sess.run(out, feed_dict={{x: [1.0, -2.0], flag: True}}))
"""


def rewrite(body: str) -> str:
    result = rewrite_source(PROGRAM.format(body=textwrap.dedent(body)))
    assert result.level == "idiomatic", result.findings
    check_noop(result.code)  # a second run changes nothing
    return result.code


def test_cond_in_a_step_becomes_if_else() -> None:
    code = rewrite("out = tf.cond(flag, lambda: x * 2.0, lambda: x - 1.0)\n")
    assert "    if flag:\n        out = x * 2.0\n    else:\n        out = x - 1.0\n" in code
    assert "tf.cond" not in code


def test_cond_whose_false_branch_keeps_the_value_has_no_else() -> None:
    code = rewrite("out = x + 1.0\nout = tf.cond(flag, true_fn=lambda: out * 0.5, false_fn=lambda: out)\n")
    assert "    if flag:\n        out = out * 0.5\n    return out\n" in code


def test_named_branches_are_called() -> None:
    code = rewrite("""\
        def twos():
            return tf.ones([2]) * 2.0
        out = tf.cond(flag, twos, lambda: x)
        """)
    assert "    if flag:\n        out = twos()\n    else:\n        out = x\n" in code


def test_while_loop_unpacks_into_a_python_while_with_fresh_names_for_underscores() -> None:
    code = rewrite("""\
        def body(i, acc):
            return i + 1, acc * 2.0
        _, out = tf.while_loop(lambda step, acc: step < 3, body, [tf.constant(0), x])
        """)
    assert ("    step, out = tf.constant(0), x\n    while step < 3:\n"
            "        step, out = body(step, out)\n") in code


def test_a_helper_called_only_from_steps_is_converted_but_not_one_a_keras_object_calls() -> None:
    code = rewrite("""\
        def clip(v):
            v = tf.cond(tf.reduce_max(v) > 1.0, lambda: v / tf.reduce_max(v), lambda: v)
            return v
        out = clip(x)
        """)
    assert "def clip(v):\n    if tf.reduce_max(v) > 1.0:\n        v = v / tf.reduce_max(v)\n    return v\n" in code
    result = rewrite_source(textwrap.dedent("""\
        import tensorflow as tf

        def rate(step):
            return tf.cond(step < 10, lambda: 0.1, lambda: 0.01)

        step = tf.Variable(0, trainable=False)
        w = tf.Variable(1.0)
        loss = tf.square(w - rate(step))
        train = tf.train.GradientDescentOptimizer(rate(step)).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run([train, loss])[1])
        """))
    assert "return tf.cond(step < 10" in result.code


def test_loops_and_conds_it_cannot_express_are_left() -> None:
    code = rewrite("""\
        n, out = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2.0), [0, x], maximum_iterations=2)
        out = tf.cond(flag, lambda: out, lambda: out * 0.0) + tf.cond(flag, lambda: 1.0, lambda: 2.0)
        k, out = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * out), [0, out])
        """)
    assert code.count("tf.while_loop(") == 2 and code.count("tf.cond(") == 2
