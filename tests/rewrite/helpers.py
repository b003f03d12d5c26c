"""Assertions shared by the rule tests."""

from __future__ import annotations

import io
import re
import textwrap
import tokenize

import libcst as cst

from migrate.api import RewriteResult, rewrite_source
from migrate.imports import collect_aliases
from migrate.move.state import MoveState

# Names an idiomatic rewrite must not contain (outside comments and strings).
TF1_NAMES = frozenset({
    "Session", "InteractiveSession", "placeholder", "get_variable", "variable_scope",
    "gradients", "minimize", "compute_gradients", "global_variables_initializer",
    "disable_eager_execution", "compat",
})


def code_names(source: str) -> set[str]:
    """Identifiers in code, excluding comments and string literals."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME}


def check_transformed(before: str, after: str, level: str = "idiomatic") -> RewriteResult:
    """`before` rewrites to exactly `after`, and rewriting `after` changes nothing."""
    before, after = textwrap.dedent(before), textwrap.dedent(after)
    result = rewrite_source(before)
    assert result.code == after, result.code
    assert result.changed
    assert result.level == level, (result.level, result.findings)
    check_noop(after)
    return result


def check_noop(source: str) -> None:
    source = textwrap.dedent(source)
    result = rewrite_source(source)
    assert result.code == source
    assert not result.changed
    assert result.level == "untouched"


def squeezed(code: str) -> str:
    """Code without its layout (whitespace, and the trailing comma a wrapped call gets), to
    check what a long emitted line says whichever way it was wrapped."""
    return re.sub(r",([)\]])", r"\1", re.sub(r"\s+", "", code))


def check_transformed_code(before: str, after: str) -> RewriteResult:
    """`before` rewrites to `after` up to the wrapping of long lines, and is then stable."""
    before, after = textwrap.dedent(before), textwrap.dedent(after)
    result = rewrite_source(before)
    if max(len(line) for line in after.splitlines()) <= 100:
        assert result.code == after, result.code  # nothing to wrap: exactly
    assert squeezed(result.code) == squeezed(after), result.code
    assert result.changed
    check_noop(result.code)
    return result


def move_state(source: str) -> MoveState:
    """The state a program move starts from for `source`, for tests of one pass: aliases
    collected, no graph nodes yet, each statement's line recorded."""
    module = cst.parse_module(textwrap.dedent(source))
    lines = {id(stmt): i for i, stmt in enumerate(module.body, start=1)}
    return MoveState(module, collect_aliases(module), lines, [])


def expression(source: str) -> cst.BaseExpression:
    return cst.parse_expression(source)
