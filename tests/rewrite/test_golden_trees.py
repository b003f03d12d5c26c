"""Programs of several files: fixtures/trees/<name>/before/ rewrites to after/ as one program.

A model module with no session is rewritten with the script (or notebook) importing it; the
script's `check.json` names it, or them (`main`), and on real TensorFlow it prints the original's
numbers (a notebook runs as its code cells in order).
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

from migrate import notebooks
from migrate.api import RewriteConfig, rewrite_source
from migrate.programs import rewrite_tree

TREES = Path(__file__).resolve().parents[2] / "fixtures" / "trees"
NAMES = sorted(p.name for p in TREES.iterdir() if (p / "before").is_dir())


def _sources(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.iterdir()) if p.suffix in (".py", ".ipynb")}


def _code(path: Path) -> str:
    """A file's Python code: a notebook's code cells as one script."""
    return notebooks.to_script(path.read_bytes())[0] if path.suffix == ".ipynb" else path.read_text(encoding="utf-8")


def _comments(source: str) -> Counter[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return Counter(t.string.strip() for t in tokens if t.type == tokenize.COMMENT)


@pytest.mark.parametrize("name", NAMES)
def test_tree_rewrites_to_its_golden(name: str) -> None:
    outcomes, refused = rewrite_tree(_sources(TREES / name / "before"), RewriteConfig())
    assert refused == {}
    after = {p.name: p.read_text(encoding="utf-8") for p in _sources(TREES / name / "after")}
    assert {p.name: o.code for p, o in outcomes.items()} == after
    assert {o.level for o in outcomes.values()} == {"idiomatic"}


@pytest.mark.parametrize("name", NAMES)
def test_tree_golden_is_a_fixed_point(name: str) -> None:
    sources = _sources(TREES / name / "after")
    assert rewrite_tree(sources, RewriteConfig()) == ({}, {})
    for path in sources:
        assert not rewrite_source(_code(path), filename=str(path)).changed, path.name


@pytest.mark.parametrize("name", NAMES)
def test_tree_golden_keeps_every_comment(name: str) -> None:
    for before in _sources(TREES / name / "before"):
        after = TREES / name / "after" / before.name
        assert not _comments(_code(before)) - _comments(_code(after))


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
    # in a copy: the scripts write files (checkpoints) that later ones read, each side its own
    shutil.copy(TREES / name / "check.json", tmp_path / "check.json")
    for side in ("before", "after"):
        shutil.copytree(TREES / name / side, tmp_path / side)
    for main in [mains] if isinstance(mains, str) else mains:
        if main.endswith(".ipynb"):  # run as its code cells, beside the modules it imports
            main = _as_script(tmp_path, main)
        ok, message = check(python, tmp_path, f"after/{main}", f"before/{main}")
        assert ok, f"{main}: {message}"


def _as_script(fixture: Path, notebook: str) -> str:
    """The name of a script beside the notebook, on each side, of its code cells."""
    script = f"{Path(notebook).stem}_cells.py"
    for side in ("before", "after"):
        (fixture / side / script).write_text(_code(fixture / side / notebook), encoding="utf-8")
    return script


def _check_library(python: str, fixture: Path, drivers: dict[str, str], tmp: Path) -> None:
    """The library's before/ and after/ each run by its driver, as `use.py` beside the module."""
    for side in ("before", "after"):
        shutil.copytree(fixture / side, tmp / side)
        shutil.copy(fixture / drivers[side], tmp / side / "use.py")
    ok, message = check(python, tmp, "after/use.py", "before/use.py")
    assert ok, message
