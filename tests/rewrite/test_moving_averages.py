"""tf.train.ExponentialMovingAverage of trained variables → the class the rewrite defines
(move/moving_averages.py): shadows made before the update, averages moved beside it."""

from __future__ import annotations

import textwrap

from migrate.api import rewrite_source
from migrate.move.moving_averages import CLASS_SOURCE

PROGRAM = textwrap.dedent("""\
    import tensorflow as tf
    x = tf.placeholder(tf.float32, [None])
    w = tf.Variable(1.0)
    b = tf.Variable(0.5)
    step = tf.Variable(0, trainable=False)
    loss = tf.reduce_sum(w * x + b)
    train_step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    ema = tf.train.ExponentialMovingAverage(0.9, step)
    ema_op = ema.apply([w, b])
    train_op = tf.group(train_step, ema_op)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(3):
            sess.run(train_op, feed_dict={x: [1.0, 2.0]})
    """)


def test_the_averages_are_the_defined_class_made_and_moved_before_the_update() -> None:
    result = rewrite_source(PROGRAM)
    assert result.level == "idiomatic", result.findings
    code = result.code
    assert CLASS_SOURCE in code
    assert "ema = ExponentialMovingAverage(0.9, num_updates=step)\n" in code
    body = code[code.index("def train_step"):]
    order = [body.index(s) for s in ("ema.track([w, b])", "ema.apply([w, b])", "optimizer.apply_gradients",
                                      "step.assign_add(1)")]
    assert order == sorted(order), body
    assert not rewrite_source(code).changed


def test_all_trainable_variables_are_read_from_their_owners() -> None:
    result = rewrite_source(PROGRAM.replace("ema.apply([w, b])", "ema.apply(tf.trainable_variables())"))
    assert result.level == "idiomatic", result.findings
    assert "ema.apply([w, b])" in result.code


def _blocked(source: str) -> list[str]:
    result = rewrite_source(source)
    assert result.level != "idiomatic"
    assert "ExponentialMovingAverage(0.9" not in result.code or "tf.compat.v1" in result.code
    return [f.message for f in result.findings]


def test_reading_an_average_by_tf1_name_keeps_the_program() -> None:
    messages = _blocked(PROGRAM + "        print(sess.run(ema.average(w)))\n")
    assert any("ema.average: only apply() and variables_to_restore() of an ExponentialMovingAverage convert" in m for m in messages)


def test_zero_debias_keeps_the_program() -> None:
    messages = _blocked(PROGRAM.replace("(0.9, step)", "(0.9, step, zero_debias=True)"))
    assert any("ExponentialMovingAverage(zero_debias=True)" in m for m in messages)
