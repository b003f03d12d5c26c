"""Programs of several files: fixtures/trees/<name>/before/ rewrites to after/ as one program.

A model module with no session is rewritten with the script importing it; the script's
`check.json` names it, or them (`main`), and on real TensorFlow it prints the original's numbers.
A module nothing in the tree imports (`library`) is rewritten for the importers it will have:
`check.json` names a TF1 script using before/ and a TF2 one using after/ as its findings say,
and the two print the same numbers.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tokenize
from collections import Counter
from pathlib import Path

import pytest
from check_on_tf import check

from migrate.api import RewriteConfig, rewrite_source
from migrate.programs import rewrite_tree

TREES = Path(__file__).resolve().parents[2] / "fixtures" / "trees"
NAMES = sorted(p.name for p in TREES.iterdir() if (p / "before").is_dir())


def _sources(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.glob("*.py"))}


def _comments(source: str) -> Counter[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return Counter(t.string.strip() for t in tokens if t.type == tokenize.COMMENT)


@pytest.mark.parametrize("name", NAMES)
def test_tree_rewrites_to_its_golden(name: str) -> None:
    outcomes, refused = rewrite_tree(_sources(TREES / name / "before"), RewriteConfig())
    assert refused == {}
    after = {p.name: p.read_text(encoding="utf-8") for p in (TREES / name / "after").glob("*.py")}
    assert {p.name: o.code for p, o in outcomes.items()} == after
    assert {o.level for o in outcomes.values()} == {"idiomatic"}


@pytest.mark.parametrize("name", NAMES)
def test_tree_golden_is_a_fixed_point(name: str) -> None:
    sources = _sources(TREES / name / "after")
    assert rewrite_tree(sources, RewriteConfig()) == ({}, {})
    for path, source in sources.items():
        assert not rewrite_source(source, filename=str(path)).changed, path.name


@pytest.mark.parametrize("name", NAMES)
def test_tree_golden_keeps_every_comment(name: str) -> None:
    for before in (TREES / name / "before").glob("*.py"):
        after = TREES / name / "after" / before.name
        assert not _comments(before.read_text(encoding="utf-8")) - _comments(after.read_text(encoding="utf-8"))


@pytest.mark.tf
@pytest.mark.parametrize("name", NAMES)
def test_tree_prints_the_original_numbers_on_real_tensorflow(name: str, tmp_path: Path) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    config = json.loads((TREES / name / "check.json").read_text())
    if "library" in config:
        _check_library(python, TREES / name, config["library"], tmp_path)
        return
    mains = config["main"]
    for main in [mains] if isinstance(mains, str) else mains:
        ok, message = check(python, TREES / name, f"after/{main}", f"before/{main}")
        assert ok, f"{main}: {message}"


def _check_library(python: str, fixture: Path, drivers: dict[str, str], tmp: Path) -> None:
    """The library's before/ and after/ each run by its driver, as `use.py` beside the module."""
    for side in ("before", "after"):
        shutil.copytree(fixture / side, tmp / side)
        shutil.copy(fixture / drivers[side], tmp / side / "use.py")
    ok, message = check(python, tmp, "after/use.py", "before/use.py")
    assert ok, message
