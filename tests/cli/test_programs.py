"""`tfmigrate rewrite` over a tree: a model module and the script importing it change together."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate import process
from migrate.cli import main
from migrate.files import FileProblem

TREE = Path(__file__).resolve().parents[2] / "fixtures" / "trees" / "model_module_import"


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    shutil.copytree(TREE / "before", tmp_path / "src")
    return tmp_path / "src"


def _texts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.py"))}


def test_the_module_and_its_importer_are_rewritten_together(project: Path) -> None:
    result = cli("rewrite", "--no-cache", str(project))
    assert result.exit_code == 1, result.output
    assert _texts(project) == _texts(TREE / "after")
    assert cli("rewrite", "--no-cache", str(project)).exit_code == 0  # and a second run changes nothing
    assert _texts(project) == _texts(TREE / "after")


def test_check_reports_both_and_writes_nothing(project: Path) -> None:
    result = cli("rewrite", "--check", "--no-cache", str(project))
    assert result.exit_code == 1
    assert "model.py" in result.output and "train.py" in result.output
    assert _texts(project) == _texts(TREE / "before")


def test_one_file_alone_is_not_a_program(project: Path) -> None:
    """Given only the script, the rewrite cannot see the module's variables: graph mode stays."""
    cli("rewrite", "--no-cache", str(project / "train.py"))
    assert (project / "model.py").read_bytes() == (TREE / "before" / "model.py").read_bytes()
    assert b"tf.compat.v1.Session" in (project / "train.py").read_bytes()


def test_a_module_given_alone_is_rewritten_for_its_importers(project: Path) -> None:
    """Given only the module, it is a library: its functions become models, and a finding
    says the code importing it must call them as the findings tell."""
    result = cli("rewrite", "--no-cache", str(project / "model.py"))
    assert result.exit_code == 1, result.output
    assert b"(tf.keras.Model)" in (project / "model.py").read_bytes()
    assert "no file given with this module imports it" in result.output
    assert (project / "train.py").read_bytes() == (TREE / "before" / "train.py").read_bytes()


def test_a_notebook_importing_the_module_keeps_the_files_apart(project: Path) -> None:
    """The notebook would call the module's old functions: neither file changes as a program."""
    (project / "explore.ipynb").write_text(
        '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,'
        ' "source": ["import model\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n')
    cli("rewrite", "--no-cache", str(project))
    assert b"class Inference" not in (project / "model.py").read_bytes()
    assert b"model.inference.trainable_variables" not in (project / "train.py").read_bytes()


def test_a_failed_write_puts_back_the_files_already_written(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = process.write_atomic

    def failing(path: Path, data: bytes, expected: bytes) -> None:
        if path.name == "model.py" and data != expected and b"class Inference" in data:
            raise FileProblem(f"{path}: read-only file system")
        real(path, data, expected)

    monkeypatch.setattr(process, "write_atomic", failing)
    result = cli("rewrite", "--no-cache", str(project))
    assert result.exit_code == 123
    assert "read-only file system" in result.output
    assert _texts(project) == _texts(TREE / "before")


def test_a_script_left_alone_says_why(project: Path) -> None:
    train = project / "train.py"
    train.write_text(train.read_text().replace("LEARNING_RATE = 0.5", "HIDDEN_NODE = 7\nLEARNING_RATE = 0.5"))
    result = cli("rewrite", "--check", "--no-cache", str(project))
    assert "train.py:5:1 TF102 not rewritten with model.py as one program: train.py and model.py both bind HIDDEN_NODE" in result.output
