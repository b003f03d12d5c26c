"""`codegen.code` gives exactly libcst's source for a node, by its shortcut or not."""

from __future__ import annotations

import sys

import libcst as cst
import pytest

from migrate.codegen import code, fill_lines, forget_lines, record_line

EXPRESSIONS = [
    "tf", "tf.nn.relu", "(tf).nn", "(tf.nn).relu", "tf . nn", "tf.\\\n    nn", "(tf.nn.relu)",
    "f(x).y.z", "a[0].b", "tf.compat.v1.placeholder", "x", "'s'.join", "( x )",
]


@pytest.mark.parametrize("source", EXPRESSIONS)
def test_code_is_libcst_code(source: str) -> None:
    node = cst.parse_expression(source)
    assert code(node) == cst.Module([]).code_for_node(node) == source


def test_a_recorded_node_is_held_until_the_next_rewrite() -> None:
    """Lines are keyed by node id: a recorded node that died could hand its id, and its line,
    to a node made later (a made-up run site would then report at another statement's line)."""
    made = cst.parse_statement("x = f(y)\n")
    filled = cst.parse_expression("g(z)")
    held = sys.getrefcount(made), sys.getrefcount(filled)
    lines: dict[int, int] = {}
    record_line(lines, made, 7)
    fill_lines(filled, 9, lines)
    assert lines[id(made)] == 7 and lines[id(filled)] == 9
    assert (sys.getrefcount(made), sys.getrefcount(filled)) == (held[0] + 1, held[1] + 1)
    forget_lines()
    assert (sys.getrefcount(made), sys.getrefcount(filled)) == held
