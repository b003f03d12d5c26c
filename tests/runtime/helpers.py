"""Shared helpers: run a program on the engine in a subprocess, mask numbers for comparisons."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "reference" / "tf221-programs"
NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")


def run_engine(program: Path, face: str = "auto", stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "runtime.run", "--face", face, str(program)],
                          input=stdin, capture_output=True, text=True, timeout=timeout, env=env, check=False,
                          cwd=str(program.parent))


def mask_numbers(text: str) -> str:
    """Random-valued output: keep words and structure, replace every number, drop whitespace."""
    return re.sub(r"\s+", "", NUMBER.sub("N", text))


def recorded_stdout(out_file: Path) -> tuple[str, int]:
    """The stdout and exit status recorded in a reference ``.out`` file."""
    lines = out_file.read_text().split("\n")
    rc = int(re.search(r"rc=(\d+)", lines[0]).group(1))  # type: ignore[union-attr]
    end = lines.index("--- stderr (filtered) ---")
    return "\n".join(lines[1:end]) + ("\n" if end > 1 else ""), rc


def _tokens(text: str) -> tuple[list[str], list[float]]:
    words, numbers, last = [], [], 0
    for m in NUMBER.finditer(text):
        words.append(re.sub(r"\s+", "", text[last:m.start()]))
        numbers.append(float(m.group(0)))
        last = m.end()
    words.append(re.sub(r"\s+", "", text[last:]))
    return words, numbers


def same_output(got: str, expected: str, rtol: float = 1e-5, atol: float = 1e-7) -> bool:
    """Equal words (whitespace ignored) and numbers equal to float32 rounding.

    TF computes exp/log/tanh with Eigen's vectorised approximations; NumPy's are correctly
    rounded, so printed float32 values may differ in the last digit (and numpy's column padding
    with them).
    """
    gw, gn = _tokens(got)
    ew, en = _tokens(expected)
    if gw != ew or len(gn) != len(en):
        return False
    return all(abs(a - b) <= atol + rtol * abs(b) for a, b in zip(gn, en))
