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


@pytest.mark.slow
def test_hook_rewrites_fails_the_commit_once_then_passes(tmp_path: Path) -> None:
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), **IDENTITY)
    head = run(ROOT, "git", "rev-parse", "HEAD", env=env)
    if head.returncode != 0:
        pytest.skip("needs this checkout to be a git repository with a commit")
    pre_commit = shutil.which("pre-commit")
    if pre_commit is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pre-commit"], check=True)
        pre_commit = str(Path(sys.executable).with_name("pre-commit"))
    repo = tmp_path / "project"
    repo.mkdir()
    run(repo, "git", "init", "-q", env=env)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {head.stdout.strip()}\n    hooks:\n      - id: tfmigrate\n"
    )
    (repo / "train.py").write_text(TF1)
    assert run(repo, pre_commit, "install", env=env).returncode == 0
    run(repo, "git", "add", ".", env=env)
    first = run(repo, "git", "commit", "-qm", "add", env=env)
    assert first.returncode != 0, first.stdout + first.stderr
    rewritten = (repo / "train.py").read_text()
    assert "Session" not in rewritten and "compat.v1" not in rewritten
    run(repo, "git", "add", ".", env=env)
    second = run(repo, "git", "commit", "-qm", "add", env=env)
    assert second.returncode == 0, second.stdout + second.stderr
