"""What line coverage costs a verify run: each engine program with and without the tracer.

    python benchmarks/line_coverage.py [--repeat 3]

Each program in ``tests/verify/programs`` runs on the engine as a fresh process,
once as ``python -m runtime.run PROG`` and once with ``runtime.line_coverage``
tracing the program's file first (what ``verify``'s child does); the table gives
the fastest of ``--repeat`` runs of each in CPU seconds, and the overhead.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "tests" / "verify" / "programs").glob("*.py"))
TRACED = (
    "import sys; from runtime.line_coverage import LineCoverage; from runtime.run import main; "
    "LineCoverage(sys.argv[1]).start(); main(sys.argv[1:])"
)


def seconds(command: list[str]) -> float:
    """CPU seconds (user + system) of one run: steadier than wall-clock on a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    print("| program | plain (CPU s) | traced (CPU s) | overhead |")
    print("|---|---:|---:|---:|")
    for program in PROGRAMS:
        path = str(program)
        plain = min(seconds([sys.executable, "-m", "runtime.run", path]) for _ in range(repeat))
        traced = min(seconds([sys.executable, "-c", TRACED, path]) for _ in range(repeat))
        print(f"| {program.name} | {plain:.2f} | {traced:.2f} | {traced / plain - 1:+.1%} |")


if __name__ == "__main__":
    main()
