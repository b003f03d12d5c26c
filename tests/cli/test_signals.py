"""A run ended by a signal: no worker left running, no temporary file, no half-written file."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate.api import ParseError, RewriteConfig
from migrate.cli import main
from migrate.process import UnsafeRewrite, rewrite_bytes

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "fixtures" / "programs").glob("*/before.py"))[:40]
TF1 = b"import tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.float32)\n"


def _rewrite_of(source: bytes, name: str) -> bytes:
    try:
        result = rewrite_bytes(source, name, RewriteConfig())
    except (ParseError, UnsafeRewrite):
        return source
    return result.code if isinstance(result.code, bytes) else result.code.encode("utf-8")


@pytest.fixture(autouse=True)
def listening_to_ctrl_c():
    """These tests play a terminal's Ctrl-C, which reaches only a process that listens: under
    ``nohup`` or as a shell's background job, pytest starts with SIGINT ignored, and the run
    rightly keeps it so (``migrate.workers``)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.fixture(scope="module")
def originals() -> dict[str, tuple[bytes, bytes]]:
    """Each program's name in the tree: its bytes and the bytes of its full rewrite."""
    out = {}
    for path in PROGRAMS:
        name = f"{path.parent.name}.py"
        source = path.read_bytes()
        out[name] = (source, _rewrite_of(source, name))
    return out


def _make_tree(folder: Path, originals: dict[str, tuple[bytes, bytes]]) -> Path:
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    for name, (source, _) in originals.items():
        (folder / name).write_bytes(source)
    return folder


def _live_processes_naming(text: str) -> list[int]:
    """Processes (not zombies) whose command line holds ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text.encode() in cmdline and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def _assert_ended_cleanly(tree: Path, originals: dict[str, tuple[bytes, bytes]]) -> int:
    """No worker, no temporary file, each file original or fully rewritten; how many were."""
    deadline = time.monotonic() + 5
    while _live_processes_naming(str(tree)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _live_processes_naming(str(tree))
    assert sorted(p.name for p in tree.iterdir() if p.suffix == ".py") == sorted(originals)
    assert not [p for p in tree.rglob("*") if p.name.endswith((".tfmigrate", ".tmp"))]
    rewritten = 0
    for name, (source, rewrite) in originals.items():
        now = (tree / name).read_bytes()
        assert now in (source, rewrite), f"{name} is neither original nor fully rewritten"
        rewritten += now != source
    return rewritten


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
@pytest.mark.slow
def test_killing_the_main_process_ends_its_workers_between_writes(tmp_path, originals) -> None:
    randoms = random.Random(17)
    tfmigrate = [sys.executable, "-m", "migrate", "rewrite", "-j", "2"]
    partly = 0
    for attempt in range(20):
        tree = _make_tree(tmp_path / f"tree{attempt}", originals)
        main_process = subprocess.Popen(
            [*tfmigrate, str(tree)], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(randoms.uniform(0.3, 2.5))
        main_process.send_signal(randoms.choice([signal.SIGKILL, signal.SIGTERM]))
        main_process.wait()
        rewritten = _assert_ended_cleanly(tree, originals)
        partly += 0 < rewritten < sum(s != r for s, r in originals.values())
        shutil.rmtree(tree)
    assert partly, "no kill landed while files were being rewritten"


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
@pytest.mark.slow
def test_ctrl_c_ends_the_run_with_130_and_every_worker(tmp_path, originals) -> None:
    tree = _make_tree(tmp_path / "tree", originals)
    main_process = subprocess.Popen(
        [sys.executable, "-m", "migrate", "rewrite", "-j", "2", "--no-cache", str(tree)],
        cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    while all((tree / name).read_bytes() == source for name, (source, _) in originals.items()):
        time.sleep(0.01)  # until the first file is written
    main_process.send_signal(signal.SIGINT)
    _, stderr = main_process.communicate()
    assert main_process.returncode == 130
    assert b"interrupted (SIGINT)" in stderr and b"Traceback" not in stderr
    assert 0 < _assert_ended_cleanly(tree, originals) < len(originals)


def test_a_signal_during_a_write_waits_for_the_write(tmp_path, monkeypatch) -> None:
    """One by one (-j 1): Ctrl-C inside a file's write lets that write finish, then ends the run."""
    monkeypatch.chdir(tmp_path)
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_bytes(TF1)
    real_fsync = os.fsync

    def fsync_then_ctrl_c(fd: int) -> None:
        real_fsync(fd)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(os, "fsync", fsync_then_ctrl_c)
    result = CliRunner().invoke(main, ["rewrite", "-j", "1", "--no-cache", "a.py", "b.py"])
    assert result.exit_code == 130
    assert "interrupted (SIGINT); no file was left half-written" in result.output
    assert (tmp_path / "a.py").read_bytes() == _rewrite_of(TF1, "a.py") != TF1
    assert (tmp_path / "b.py").read_bytes() == TF1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "b.py"]


def test_ctrl_c_while_verifying_ends_the_run_with_130(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_bytes(TF1)

    def interrupted_verify(*args, **kwargs):
        signal.raise_signal(signal.SIGINT)
        raise AssertionError("the signal did not end the run")

    monkeypatch.setattr("migrate.cli._verify_sources", interrupted_verify)
    result = CliRunner().invoke(main, ["rewrite", "--verify", "--no-cache", "a.py"])
    assert result.exit_code == 130, result.output
    assert "interrupted (SIGINT)" in result.output
    assert (tmp_path / "a.py").read_bytes() == TF1


_KILLED_WHILE_WRITING = """
import os, signal, sys
from pathlib import Path
from migrate.files import write_atomic
os.replace = lambda *args: os.kill(os.getpid(), signal.SIGKILL)
path = Path(sys.argv[1])
write_atomic(path, b"half done", path.read_bytes())
"""


def test_a_temporary_file_left_by_a_killed_writer_is_removed_by_the_next_run(tmp_path, monkeypatch) -> None:
    """SIGKILL between the temporary file and its rename leaves the file; the next run removes it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_bytes(TF1)
    killed = subprocess.run([sys.executable, "-c", _KILLED_WHILE_WRITING, str(tmp_path / "a.py")],
                            check=False, cwd=ROOT)
    assert killed.returncode == -signal.SIGKILL
    (left,) = [p for p in tmp_path.iterdir() if p.name.endswith(".tfmigrate")]
    assert (tmp_path / "a.py").read_bytes() == TF1 and left.read_bytes() == b"half done"

    checked = CliRunner().invoke(main, ["rewrite", "--check", "--no-cache", "."])
    assert left.exists() and f"{left.name}: skipped: a temporary file left by an interrupted run" in checked.output
    for named in (["a.py"], ["."]):
        (tmp_path / "a.py").write_bytes(TF1)
        left.write_bytes(b"half done")
        result = CliRunner().invoke(main, ["rewrite", "--no-cache", *named])
        assert not left.exists(), named
        assert f"{left.name}: removed a temporary file left by an interrupted run (pid" in result.output
        assert "1 rewritten" in result.output and "1 left-over temporary files removed" in result.output
        assert (tmp_path / "a.py").read_bytes() == _rewrite_of(TF1, "a.py")


def test_a_temporary_file_whose_writer_lives_is_left_alone(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_bytes(TF1)
    in_use = tmp_path / f".a.py.{os.getpid()}.abcd1234.tfmigrate"
    someone_elses = tmp_path / ".notes.tfmigrate"
    for path in (in_use, someone_elses):
        path.write_bytes(b"being written")
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", "."])
    assert in_use.read_bytes() == someone_elses.read_bytes() == b"being written"
    assert "temporary" not in result.output
