"""The rewrite cache: a hit must never write what a fresh rewrite would not."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate.cache import Cache, Entry
from migrate.cli import main
from migrate.process import rewrite_bytes
from migrate.report import RewriteConfig

TF1 = b"import tensorflow as tf\nx = tf.random_normal([2])\n"
NOTEBOOK = Path(__file__).resolve().parents[2] / "fixtures" / "notebooks" / "add_session.ipynb"
GARBAGE = b"this is not python ("


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    return tmp_path


def test_a_tampered_cache_entry_never_reaches_the_source(project: Path) -> None:
    source = project / "old.py"
    source.write_bytes(TF1)
    cli("rewrite", "--check", "old.py")  # caches the rewrite without writing it
    rewrite = rewrite_bytes(TF1, "old.py", RewriteConfig()).code
    [entry] = (project / ".tfmigrate_cache").rglob("*.json")
    stored = entry.read_text()
    assert base64.b64encode(rewrite).decode() in stored
    entry.write_text(stored.replace(base64.b64encode(rewrite).decode(), base64.b64encode(GARBAGE).decode()))
    result = cli("rewrite", "old.py")
    assert result.exit_code == 1
    assert source.read_bytes() == rewrite


def test_an_entry_whose_code_does_not_parse_is_a_miss(tmp_path: Path) -> None:
    cache = Cache(tmp_path, "salt")
    cache.put(TF1, "python", Entry("idiomatic", [], GARBAGE))
    assert cache.get(TF1, "python") is None
    cache.put(TF1, "python", Entry("idiomatic", [], b"x = 1\n"))
    assert cache.get(TF1, "python") == Entry("idiomatic", [], b"x = 1\n")
    cache.put(TF1, "notebook", Entry("idiomatic", [], b"x = 1\n"))  # not a notebook
    assert cache.get(TF1, "notebook") is None


def test_a_python_file_with_a_notebooks_bytes_does_not_get_its_rewrite(project: Path) -> None:
    shutil.copy(NOTEBOOK, project / "nb.ipynb")
    shutil.copy(NOTEBOOK, project / "nb.py")  # JSON is a Python expression: nothing to rewrite
    assert cli("rewrite", "--check", "nb.ipynb").exit_code == 1  # caches the notebook's rewrite
    result = cli("rewrite", "nb.py")
    assert result.exit_code == 0
    assert (project / "nb.py").read_bytes() == NOTEBOOK.read_bytes()
    assert cli("rewrite", "nb.ipynb").exit_code == 1
    assert (project / "nb.ipynb").read_bytes() != NOTEBOOK.read_bytes()


def test_an_interrupted_store_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = Cache(tmp_path / "cache", "salt")

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("os.replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cache.put(TF1, "python", Entry("untouched", []))
    assert [p.name for p in (tmp_path / "cache").rglob("*") if p.is_file()] == [".gitignore"]
