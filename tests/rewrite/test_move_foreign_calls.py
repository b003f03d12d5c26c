"""Graph code built by another module's function keeps the file in graph mode: its variables
and ops are outside what this file's rewrite can see."""

from __future__ import annotations

import pytest

from migrate.api import rewrite_source

PROGRAM = """\
import tensorflow as tf
{imports}
x = tf.placeholder(tf.float32, [None, 2])
y = {value}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {{x: [[1.0, 2.0]]}}))
"""


@pytest.mark.parametrize(("imports", "value", "named"), [
    ("import model", "model.inference(x)", "model.inference() of module model"),
    ("import nets.model as m", "m.inference(x, 3)", "m.inference() of module nets.model"),
    ("from model import inference", "inference(x) * 2.0", "inference() of module model"),
    ("from .model import inference", "tf.nn.relu(inference(x))", "inference() of module .model"),
])
def test_a_call_of_another_modules_function_on_graph_values_keeps_graph_mode(
    imports: str, value: str, named: str,
) -> None:
    result = rewrite_source(PROGRAM.format(imports=imports, value=value))
    assert result.level == "partial"
    assert result.fallback.line == 4
    assert result.fallback.message.startswith(f"{named} builds graph code this file's rewrite cannot see")
    assert "tf.compat.v1.Session()" in result.code


@pytest.mark.parametrize(("imports", "value"), [
    ("import numpy as np", "x * np.float32(2.0)"),
    ("import math", "x * math.sqrt(2.0)"),
    ("import config", "x * config.scale()"),  # another module's value, computed from no graph value
])
def test_array_libraries_and_calls_without_graph_values_are_not_foreign(imports: str, value: str) -> None:
    result = rewrite_source(PROGRAM.format(imports=imports, value=value))
    assert result.level == "idiomatic", result.findings
