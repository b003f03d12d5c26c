"""Every finding on a golden program points at a source line, and each is reported once."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate.api import rewrite_source

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "programs"
PROGRAMS = sorted(p.name for p in FIXTURES.iterdir() if (p / "before.py").exists())


@pytest.mark.parametrize("name", PROGRAMS)
def test_findings_have_lines_and_are_distinct(name: str) -> None:
    result = rewrite_source((FIXTURES / name / "before.py").read_text(encoding="utf-8"))
    assert [f for f in result.findings if f.line == 0] == []
    assert len(set(result.findings)) == len(result.findings)
