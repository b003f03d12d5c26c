"""`codegen.code` gives exactly libcst's source for a node, by its shortcut or not."""

from __future__ import annotations

import libcst as cst
import pytest

from migrate.codegen import code

EXPRESSIONS = [
    "tf", "tf.nn.relu", "(tf).nn", "(tf.nn).relu", "tf . nn", "tf.\\\n    nn", "(tf.nn.relu)",
    "f(x).y.z", "a[0].b", "tf.compat.v1.placeholder", "x", "'s'.join", "( x )",
]


@pytest.mark.parametrize("source", EXPRESSIONS)
def test_code_is_libcst_code(source: str) -> None:
    node = cst.parse_expression(source)
    assert code(node) == cst.Module([]).code_for_node(node) == source
