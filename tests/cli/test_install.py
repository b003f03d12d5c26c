"""The package as README installs it: a fresh virtualenv, `pip install .`, outside the checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_installed_package_runs_rewrites_and_verifies(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(ROOT)], check=True)
    tfmigrate = str(venv / "bin" / "tfmigrate")
    program = tmp_path / "prog.py"
    program.write_bytes((ROOT / "fixtures" / "seeds" / "g18_linreg_minimize_tf1.py").read_bytes())

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([tfmigrate, *args], cwd=tmp_path, capture_output=True, text=True,
                              check=False, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})

    ran = run("run", str(program))
    assert ran.returncode == 0 and ran.stdout == "[np.float32(0.97637), np.float32(0.057565063)]\n", ran.stderr
    verified = run("verify", "--max-steps", "20", str(program))
    assert verified.returncode == 0 and "equivalent" in verified.stdout, verified.stdout + verified.stderr
    rewritten = run("rewrite", str(program))
    assert rewritten.returncode == 1 and "tf.Session" not in program.read_text()
