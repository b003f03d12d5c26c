"""What the name-safety check adds to each rewritten file, over the programs of fixtures/corpus.

    python benchmarks/name_safety.py [--repeat 5] [--record]

For every TF1 program of ``fixtures/corpus`` that the rewriter changes, times the whole
in-process rewrite of one worker (``process.rewrite_bytes``: rewrite, stability re-run and the
check) and the check alone (``name_safety.refusal`` on input and output: two ``ast.parse``
and two pyflakes passes), each the least CPU time (``time.process_time``: what other processes
on a shared machine do is not counted) of ``--repeat`` runs; and, in fresh processes, what
importing pyflakes adds to a rewrite's start (CPU time, least of runs). Then the same for the
10,000 and 20,000-line files of ``benchmarks/tf1_corpus.py``, whose check should grow linearly. ``--record`` appends the table to
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tf1_corpus import make_file

from migrate import name_safety, process
from migrate.api import RewriteConfig


def least_cpu(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def import_cost(repeat: int) -> float:
    """CPU seconds ``import pyflakes.checker`` adds to a fresh interpreter (least of runs)."""
    def run(code: str) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    bare = min(run("import ast") for _ in range(repeat))
    loaded = min(run("import ast, pyflakes.checker") for _ in range(repeat))
    return loaded - bare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    config = RewriteConfig()
    rows = []
    for path in sorted((ROOT / "fixtures" / "corpus").glob("*.py")):
        source = path.read_bytes()
        result = process.rewrite_bytes(source, path.name, config)
        if not result.changed:
            continue
        check = least_cpu(partial(name_safety.refusal, source, result.code), args.repeat)
        whole = least_cpu(partial(process.rewrite_bytes, source, path.name, config), args.repeat)
        rows.append((path.name, source.count(b"\n"), check, whole))
    checks = [r[2] * 1000 for r in rows]
    wholes = [r[3] * 1000 for r in rows]
    shares = [c / w * 100 for c, w in zip(checks, wholes)]
    imported = import_cost(args.repeat) * 1000
    slowest = max(rows, key=lambda r: r[2])
    header = ("| files | lines (median) | check ms/file: mean | median | max | rewrite_bytes ms/file: mean "
              "| check share of rewrite_bytes: mean | max | pyflakes import ms |")
    row = (f"| {len(rows)} | {statistics.median(r[1] for r in rows):.0f} | {statistics.mean(checks):.2f} "
           f"| {statistics.median(checks):.2f} | {max(checks):.2f} | {statistics.mean(wholes):.1f} "
           f"| {statistics.mean(shares):.1f}% | {max(shares):.1f}% | {imported:.0f} |")
    table = "\n".join([header, "|---:" * 9 + "|", row])
    big = []
    for lines in (10_000, 20_000):
        source = make_file(0, lines, random.Random(lines)).encode()
        result = process.rewrite_bytes(source, "big.py", config)
        check = least_cpu(partial(name_safety.refusal, source, result.code), 3)
        whole = least_cpu(partial(process.rewrite_bytes, source, "big.py", config), 1)
        big.append(f"| {lines:,} | {len(source) // 1000:,} | {check * 1000:.0f} | {whole:.1f} |")
    big_table = "\n".join(["| lines | KB | check ms | rewrite_bytes s |", "|---:" * 4 + "|", *big])
    print(table)
    print(f"slowest check: {slowest[0]} ({slowest[1]} lines), {slowest[2] * 1000:.2f} ms")
    print(big_table)
    if args.record:
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
        text = (
            f"\n## Name-safety check per file ({stamp})\n\n"
            f"`python benchmarks/name_safety.py --repeat {args.repeat}` on {platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, pyflakes {version('pyflakes')}, "
            f"libcst {version('libcst')}; load average {load} at the end. Each time is the least CPU time of "
            f"{args.repeat} runs, in-process, over the TF1 programs of `fixtures/corpus` the rewriter "
            "changes.\n\n"
            f"{table}\n\nSlowest check: `{slowest[0]}` ({slowest[1]} lines), {slowest[2] * 1000:.2f} ms.\n\n"
            f"Big generated files (check: least CPU of 3 runs; rewrite_bytes, check included: one run):\n\n"
            f"{big_table}\n"
        )
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as results:
            results.write(text)


if __name__ == "__main__":
    main()
