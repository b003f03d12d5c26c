"""Golden programs: fixtures/programs/<name>/before.py rewrites to after.py, and nothing more."""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from pathlib import Path

import pytest
from helpers import TF1_NAMES, code_names

from migrate.api import rewrite_source

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "programs"
PROGRAMS = sorted(p.name for p in FIXTURES.iterdir() if (p / "before.py").exists())
# Programs whose rewrite keeps some compat.v1 on purpose (a finding says why).
PARTIAL = {p.name for p in FIXTURES.iterdir() if (p / "PARTIAL").exists()}


@pytest.mark.parametrize("name", PROGRAMS)
def test_rewrite_matches_golden(name: str) -> None:
    before = (FIXTURES / name / "before.py").read_bytes()
    after = (FIXTURES / name / "after.py").read_bytes()
    result = rewrite_source(before, filename=f"{name}/before.py")
    assert result.code == after
    assert result.level == ("partial" if name in PARTIAL else "idiomatic")


@pytest.mark.parametrize("name", PROGRAMS)
def test_golden_is_a_fixed_point(name: str) -> None:
    after = (FIXTURES / name / "after.py").read_bytes()
    result = rewrite_source(after)
    assert result.code == after
    assert not result.changed


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - PARTIAL))
def test_golden_is_idiomatic_tf2(name: str) -> None:
    after = (FIXTURES / name / "after.py").read_text(encoding="utf-8")
    ast.parse(after)
    assert not (code_names(after) & TF1_NAMES), code_names(after) & TF1_NAMES


def _comments(source: str) -> Counter[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return Counter(t.string.strip() for t in tokens if t.type == tokenize.COMMENT)


@pytest.mark.parametrize("name", PROGRAMS)
def test_golden_keeps_every_comment(name: str) -> None:
    """A comment on a statement the rewrite removes moves to what replaced it, never away."""
    before = (FIXTURES / name / "before.py").read_text(encoding="utf-8")
    after = (FIXTURES / name / "after.py").read_text(encoding="utf-8")
    assert not _comments(before) - _comments(after)
