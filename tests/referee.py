"""Run programs under a real TensorFlow interpreter and read back what they did.

Real TensorFlow is the referee for the engine and for every rewrite, never a
dependency: its interpreter is named by ``TFMIGRATE_TF_PYTHON`` and tests that
need it carry the ``tf`` marker.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: python tests/referee.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests import tf_runner

TF_PYTHON_ENV = "TFMIGRATE_TF_PYTHON"
ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fixtures" / "seeds"
MANIFEST = SEEDS / "expected.json"
TF1_FACE = Path(__file__).resolve().parent / "tf1_face.py"

_ERROR_LINE = re.compile(r"^(?:[\w.]+\.)?(\w+(?:Error|Exception|Exit|Interrupt|Warning)|\w+): ", re.MULTILINE)


@dataclass(frozen=True)
class Outcome:
    """What a program did: exit status, stdout, and the exception type it died of."""

    rc: int
    stdout: str
    error: str | None
    #: stderr of a clean exit: where ``tf.print`` writes; ``None`` after a crash (a traceback).
    stderr: str | None = None


def tf_python() -> str | None:
    return os.environ.get(TF_PYTHON_ENV) or None


def exception_type(stderr: str) -> str | None:
    """The type name of the exception a Python traceback ends with (module path dropped)."""
    if "Traceback (most recent call last)" not in stderr:
        return None
    tail = stderr[stderr.rindex("Traceback (most recent call last)") :]
    found = None
    for line in tail.splitlines():
        match = _ERROR_LINE.match(line)
        if match and not line.startswith(" "):
            found = match.group(1)
    return found


def run_program(
    command: list[str], program: Path, stdin: str, timeout: float = 600, env: dict[str, str] | None = None
) -> Outcome:
    env = dict(
        os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8", **(env or {})
    )
    proc = tf_runner.run([*command, str(program)], input=stdin, timeout=timeout, cwd=program.parent, env=env)
    error = exception_type(proc.stderr)
    stderr = proc.stderr if proc.returncode == 0 and error is None else None
    return Outcome(proc.returncode, proc.stdout, error, stderr)


def real_tf_command(python: str, face: str) -> list[str]:
    """``tf2`` runs the program as written; ``tf1`` maps ``import tensorflow`` to compat.v1 graph mode."""
    return [python, str(TF1_FACE)] if face == "tf1" else [python]


def load_manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def record(python: str, only: list[str]) -> None:
    """Rerun the seed fixtures (all, or those whose names contain one of ``only``) on real TF."""
    manifest = load_manifest()
    for name, entry in manifest.items():
        if only and not any(part in name for part in only):
            continue
        for face in entry["runs"]:
            outcome = run_program(real_tf_command(python, face), SEEDS / name, entry.get("stdin", ""))
            entry["runs"][face] = asdict(outcome)
            print(f"{name} [{face}] rc={outcome.rc} error={outcome.error}", file=sys.stderr)
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    python = tf_python()
    if python is None:
        sys.exit(f"set {TF_PYTHON_ENV} to a Python with tensorflow-cpu==2.21.0 installed")
    record(python, sys.argv[1:])
