"""Generated TF1 programs: the rewrite always parses, is idempotent and never loses a run."""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from migrate.api import rewrite_source

OPS = ["{a} + {b}", "{a} * {b}", "tf.square({a})", "tf.log(tf.abs({a}) + 1.0)",
       "tf.reduce_sum({a})", "tf.maximum({a}, {b})"]


@st.composite
def programs(draw: st.DrawFn) -> str:
    """Placeholders and variables, a few tensors over them, and some session runs."""
    n_ph = draw(st.integers(1, 2))
    lines = ["import tensorflow as tf"]
    names = []
    for i in range(n_ph):
        lines.append(f"p{i} = tf.placeholder(tf.float32, [])")
        names.append(f"p{i}")
    lines.append("v = tf.Variable(1.5)")
    names.append("v")
    for i in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(OPS))
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        lines.append(f"t{i} = {op.format(a=a, b=b)}")
        names.append(f"t{i}")
    train = draw(st.booleans())
    if train:
        lines.append(f"step = tf.train.GradientDescentOptimizer(0.1).minimize({names[-1]})")
    lines.append("with tf.Session() as sess:")
    lines.append("    sess.run(tf.global_variables_initializer())")
    feed = ", ".join(f"p{i}: {i + 1}.0" for i in range(n_ph))
    if train:
        lines.append(f"    sess.run(step, feed_dict={{{feed}}})")
    fetch = draw(st.sampled_from([names[-1], f"[{names[-1]}, v]", "v"]))
    lines.append(f"    print(sess.run({fetch}, feed_dict={{{feed}}}))")
    return "\n".join(lines) + "\n"


@settings(max_examples=30, deadline=None)
@given(programs())
def test_generated_programs_rewrite_cleanly(source: str) -> None:
    result = rewrite_source(source)
    ast.parse(result.code)
    assert result.level in ("idiomatic", "partial")
    assert rewrite_source(result.code).code == result.code
    if result.level == "idiomatic":
        assert "Session" not in result.code and "placeholder" not in result.code
        assert result.code.count("print(") == 1
