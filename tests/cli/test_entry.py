"""``tfmigrate run`` goes straight to the engine; everything else reaches the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from migrate.entry import _engine_argv

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "fixtures" / "seeds" / "g01_add_session_tf1.py"

# Runs a command through the entry point and reports whether the command line was loaded.
PROBE = """
import sys
sys.argv = ["tfmigrate", *sys.argv[1:]]
from migrate.entry import main
try:
    main()
finally:
    print("click loaded:", "click" in sys.modules, file=sys.stderr)
"""


def entry(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "engine_argv"),
    [
        ([str(SEED)], [str(SEED)]),
        (["--face", "tf1", str(SEED), "-x", "1"], ["--face", "tf1", str(SEED), "-x", "1"]),
        (["--help"], None),
        (["--face", "tf3", str(SEED)], None),  # click names the bad choice
        (["--face"], None),
        (["--face=tf1", str(SEED)], None),  # other spellings are click's to parse
        (["--sandbox", str(SEED)], None),  # limits are the command line's
        (["--face", "tf1", "--timeout", "5", str(SEED)], None),
        (["missing.py"], None),  # click says the file does not exist
        ([], None),
    ],
)
def test_which_runs_reach_the_engine_directly(
    args: list[str], engine_argv: list[str] | None
) -> None:
    assert _engine_argv(args) == engine_argv


def test_run_prints_the_programs_output_without_loading_the_command_line() -> None:
    done = entry("run", str(SEED))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "2\n"
    assert "click loaded: False" in done.stderr


def test_run_usage_errors_still_come_from_the_command_line() -> None:
    done = entry("run", "--face", "tf3", str(SEED))
    assert done.returncode == 2
    assert "'tf3' is not one of" in done.stderr
    assert "click loaded: True" in done.stderr


def test_other_commands_reach_the_command_line() -> None:
    done = entry("rules")
    assert done.returncode == 0, done.stderr
    assert "TF101" in done.stdout
