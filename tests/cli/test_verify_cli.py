"""`tfmigrate verify` and `rewrite --verify` from the command line: verdicts and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate.cli import main

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("g18_linreg_minimize_tf1.py", "g08_variable_scope_tf1.py", "g09b_keras_layers_add_weight_tf2.py"):
        shutil.copy(SEEDS / name, tmp_path / name)
    return tmp_path


def test_in_memory_rewrite_verifies_equivalent(work: Path) -> None:
    result = cli("verify", "--max-steps", "50", "--format", "json", "g18_linreg_minimize_tf1.py")
    verdicts = json.loads(result.stdout)
    assert result.exit_code == 0, result.stdout
    assert verdicts[0]["status"] == "equivalent" and verdicts[0]["steps_compared"] == 50
    assert (work / "g18_linreg_minimize_tf1.py").read_bytes() == (SEEDS / "g18_linreg_minimize_tf1.py").read_bytes()


def test_several_files_report_level_verdict_and_totals(work: Path) -> None:
    """A reach report over a folder: each file's level and verdict, then the totals of both."""
    (work / "plain.py").write_text("import tensorflow as tf\nprint(tf.constant(1.0) + 1.0)\n")
    (work / "broken.py").write_text("import tensorflow as tf\nx = (\n")
    result = cli("verify", "--max-steps", "20", "g18_linreg_minimize_tf1.py", "plain.py", "broken.py")
    out = result.stdout
    assert "idiomatic" in out and "untouched" in out and "failed" in out
    assert "3 files: 1 idiomatic, 1 untouched, 1 failed; 2 equivalent, 1 unverified" in out
    assert result.exit_code == 3  # the worst verdict: the file that could not be rewritten
    assert (work / "broken.py").read_text() == "import tensorflow as tf\nx = (\n"


def test_json_report_carries_the_level(work: Path) -> None:
    result = cli("verify", "--max-steps", "20", "--format", "json", "g18_linreg_minimize_tf1.py")
    assert json.loads(result.stdout)[0]["level"] == "idiomatic"


def test_the_guides_hand_migration_is_different(work: Path) -> None:
    result = cli("verify", "g08_variable_scope_tf1.py", "g09b_keras_layers_add_weight_tf2.py")
    assert result.exit_code == 1, result.stdout
    assert "different" in result.stdout


def test_an_original_that_fails_is_unverified(work: Path) -> None:
    (work / "broken.py").write_text("import tensorflow as tf\nraise RuntimeError('no data')\n")
    (work / "fixed.py").write_text("import tensorflow as tf\nprint(1)\n")
    result = cli("verify", "broken.py", "fixed.py")
    assert result.exit_code == 3 and "unverified" in result.stdout


def test_rewrite_verify_writes_only_equivalent_rewrites(work: Path) -> None:
    (work / "pyproject.toml").write_text("[tool.tfmigrate]\nmax-steps = 20\n")
    result = cli("rewrite", "--verify", "g18_linreg_minimize_tf1.py")
    assert result.exit_code == 1, result.stderr
    assert b"tf.Session" not in (work / "g18_linreg_minimize_tf1.py").read_bytes()


def test_rewrite_verify_refuses_a_wrong_rewrite(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from migrate import process
    from migrate.api import RewriteResult

    original = b"import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\nprint(tf.Session().run(tf.constant(2)))\n"
    (work / "two.py").write_bytes(original)
    wrong = b"import tensorflow as tf\nprint(tf.constant(3).numpy())\n"
    monkeypatch.setattr(process, "rewrite_bytes",
                        lambda source, filename, config: RewriteResult(wrong, True, "idiomatic", []))
    result = cli("rewrite", "--verify", "two.py")
    assert result.exit_code == 123
    assert "not written: verify says different" in result.stderr
    assert (work / "two.py").read_bytes() == original


def test_a_notebook_verifies_as_the_script_of_its_code_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    notebook = tmp_path / "add.ipynb"
    shutil.copy(SEEDS.parent / "notebooks" / "add_session.ipynb", notebook)
    result = cli("verify", "--format", "json", "add.ipynb")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)[0]["status"] == "equivalent"


def test_a_rewrite_printing_values_for_graph_reprs_verifies_equivalent(work: Path) -> None:
    """g10 prints graph tensors before running them: TF2 prints their values (TF117 says so)."""
    shutil.copy(SEEDS / "g10_gradients_tf1.py", work / "g10.py")
    result = cli("verify", "--format", "json", "g10.py")
    (verdict,) = json.loads(result.stdout)
    assert result.exit_code == 0 and verdict["status"] == "equivalent", result.stdout
    assert any("not compared" in note for note in verdict["notes"])


OLD_TF1 = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\nwith tf.Session() as s:\n    print(s.run(x * 3, {x: 0.5}))\n"
NEW_COMPAT = (
    "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\nx = tf.placeholder(tf.float32)\n"
    "with tf.Session() as s:\n    print(s.run(x * 3, {x: %s}))\n"
)


def test_a_compat_v1_migration_is_compared_with_its_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files are always the pair they name: a NEW that keeps compat.v1 is not rewritten
    and checked against itself, it is compared with OLD."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.py").write_text(OLD_TF1)
    (tmp_path / "new.py").write_text(NEW_COMPAT % "60.0")
    (tmp_path / "same.py").write_text(NEW_COMPAT % "0.5")
    wrong = cli("verify", "--format", "json", "old.py", "new.py")
    (verdict,) = json.loads(wrong.stdout)
    assert wrong.exit_code == 1 and verdict["status"] == "different", wrong.stdout
    assert verdict["file"] == "old.py -> new.py"
    right = cli("verify", "--format", "json", "old.py", "same.py")
    assert right.exit_code == 0, right.stdout


def test_two_files_are_rewritten_in_memory_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(OLD_TF1)
    (tmp_path / "b.py").write_text(OLD_TF1.replace("0.5", "2.0"))
    pair = cli("verify", "--format", "json", "a.py", "b.py")
    assert [v["file"] for v in json.loads(pair.stdout)] == ["a.py -> b.py"]
    assert pair.exit_code == 1  # TF 1.x names fail on TF 2.21, the face NEW runs with
    each = cli("verify", "--rewrite", "--format", "json", "a.py", "b.py")
    assert [(v["file"], v["status"]) for v in json.loads(each.stdout)] == [("a.py", "equivalent"), ("b.py", "equivalent")]
    assert each.exit_code == 0


def test_face_of_each_side_can_be_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(OLD_TF1)
    (tmp_path / "b.py").write_text(OLD_TF1)
    as_tf1 = cli("verify", "--face-new", "tf1", "--format", "json", "a.py", "b.py")
    assert json.loads(as_tf1.stdout)[0]["status"] == "equivalent", as_tf1.stdout


def test_several_files_show_each_verdict_as_it_is_reached(work: Path) -> None:
    (work / "plain.py").write_text("import tensorflow as tf\nprint(tf.constant(1.0) + 1.0)\n")
    (work / "broken.py").write_text("import tensorflow as tf\nx = (\n")
    result = cli("verify", "--max-steps", "20", "--rewrite", "plain.py", "broken.py")
    assert result.stderr.splitlines()[:2] == ["[1/2] plain.py: untouched, equivalent",
                                              "[2/2] broken.py: failed, unverified"]
    assert "[1/2]" not in result.stdout
    single = cli("verify", "--max-steps", "20", "plain.py")
    assert "[1/1]" not in single.stderr
