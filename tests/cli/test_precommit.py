"""The pre-commit hook as users run it: from this repository, in a fresh git repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TF1 = (
    "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"
    "c = tf.constant(1) + 1\nsess = tf.Session()\nprint(sess.run(c))\n"
)
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t"}


def run(cwd: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, env=env, check=False)


def _pre_commit() -> str:
    found = shutil.which("pre-commit")
    if found is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pre-commit"], check=True)
        found = str(Path(sys.executable).with_name("pre-commit"))
    return found


def _commits_fail_once_then_pass(repo: Path, pre_commit: str, env: dict[str, str]) -> None:
    (repo / "train.py").write_text(TF1)
    installed = run(repo, pre_commit, "install", env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    run(repo, "git", "add", ".", env=env)
    first = run(repo, "git", "commit", "-qm", "add", env=env)
    assert first.returncode != 0, first.stdout + first.stderr
    rewritten = (repo / "train.py").read_text()
    assert "Session" not in rewritten and "compat.v1" not in rewritten
    run(repo, "git", "add", ".", env=env)
    second = run(repo, "git", "commit", "-qm", "add", env=env)
    assert second.returncode == 0, second.stdout + second.stderr


def readme_pre_commit_config() -> str:
    """The ``.pre-commit-config.yaml`` README shows, as written there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### pre-commit"):]
    return section.split("```yaml\n", 1)[1].split("```", 1)[0]


@pytest.mark.slow
def test_hook_rewrites_fails_the_commit_once_then_passes(tmp_path: Path) -> None:
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), **IDENTITY)
    head = run(ROOT, "git", "rev-parse", "HEAD", env=env)
    if head.returncode != 0:
        pytest.skip("needs this checkout to be a git repository with a commit")
    repo = tmp_path / "project"
    repo.mkdir()
    run(repo, "git", "init", "-q", env=env)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {head.stdout.strip()}\n    hooks:\n      - id: tfmigrate\n"
    )
    _commits_fail_once_then_pass(repo, _pre_commit(), env)


@pytest.mark.slow
def test_readme_config_copied_verbatim_runs(tmp_path: Path) -> None:
    """README's snippet in a fresh repository, with tfmigrate installed as README says."""
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), **IDENTITY)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    assert shutil.which("tfmigrate", path=env["PATH"]), "tfmigrate is not installed beside pytest"
    repo = tmp_path / "project"
    repo.mkdir()
    run(repo, "git", "init", "-q", env=env)
    (repo / ".pre-commit-config.yaml").write_text(readme_pre_commit_config())
    _commits_fail_once_then_pass(repo, _pre_commit(), env)


def test_readme_config_is_local_and_names_the_hook() -> None:
    config = readme_pre_commit_config()
    assert "repo: local" in config and "id: tfmigrate" in config
    assert "entry: tfmigrate rewrite --force-exclude" in config
