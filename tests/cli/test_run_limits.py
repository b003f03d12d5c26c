"""``tfmigrate run`` with ``--sandbox``, ``--timeout`` and ``--memory``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tfmigrate_run(folder: Path, source: str, *options: str, env: dict | None = None):
    program = folder / "prog.py"
    program.write_text(textwrap.dedent(source))
    return subprocess.run(
        [sys.executable, "-m", "migrate", "run", *options, str(program)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_timeout_stops_the_program_with_124(tmp_path: Path) -> None:
    done = tfmigrate_run(tmp_path, """
        import time
        print("started", flush=True)
        time.sleep(600)
    """, "--timeout", "5")
    assert done.returncode == 124
    assert done.stdout == "started\n"
    assert "stopped after 5 s (--timeout)" in done.stderr


def test_memory_caps_the_program(tmp_path: Path) -> None:
    done = tfmigrate_run(tmp_path, """
        import numpy as np
        block = np.ones(1_000_000_000)
        print("allocated")
    """, "--memory", "1000")
    assert done.returncode == 1
    assert "MemoryError" in done.stderr and "allocated" not in done.stdout


def test_sandbox_keeps_the_folder_and_home_as_they_were(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    (project / "data").mkdir(parents=True)
    (project / "data" / "x.csv").write_text("1,2")
    done = tfmigrate_run(project, """
        import os
        import shutil
        shutil.rmtree("data")
        open("model.ckpt", "w").write("weights")
        open(os.path.expanduser("~/.settings"), "w").write("written")
        print(sorted(os.listdir(".")))
    """, "--sandbox", env={**os.environ, "HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "['model.ckpt', 'prog.py']\n"
    assert sorted(p.name for p in project.rglob("*")) == ["data", "prog.py", "x.csv"]
    assert list(home.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds leftovers through /proc")
def test_what_the_program_started_ends_with_it(tmp_path: Path) -> None:
    done = tfmigrate_run(tmp_path, """
        import subprocess
        import sys
        code = "import os, time; os.setsid(); time.sleep(600)"
        print(subprocess.Popen([sys.executable, "-c", code]).pid)
    """, "--timeout", "60")
    assert done.returncode == 0, done.stderr
    sleeper = int(done.stdout)
    deadline = time.monotonic() + 5
    while _running(sleeper) and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        assert not _running(sleeper)
    finally:
        if _running(sleeper):
            os.kill(sleeper, signal.SIGKILL)


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_without_options_the_program_runs_in_the_users_folder(tmp_path: Path) -> None:
    done = tfmigrate_run(tmp_path, """
        open("model.ckpt", "w").write("weights")
    """)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "model.ckpt").read_text() == "weights"


@pytest.mark.parametrize("value", ["0", "-5"])
def test_a_timeout_must_be_positive(tmp_path: Path, value: str) -> None:
    done = tfmigrate_run(tmp_path, "print(1)\n", "--timeout", value)
    assert done.returncode == 2 and "--timeout" in done.stderr
