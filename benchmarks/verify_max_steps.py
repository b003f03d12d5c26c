"""How long ``tfmigrate verify`` takes on a 10,000-step program, with and without ``--max-steps``.

    python benchmarks/verify_max_steps.py [--steps 50 200 1000] [--full] [--record]

The program is the seed linear regression golden (``fixtures/programs/seed_linreg_minimize``,
10,000 optimizer steps). Each row is one whole CLI run (both programs, their sandboxes and
the comparison), wall-clock; ``--full`` adds a run without a step budget.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "fixtures" / "programs" / "seed_linreg_minimize"


def verify_seconds(max_steps: int | None) -> tuple[float, str]:
    """Wall-clock seconds of one ``verify`` run, and its one-line verdict."""
    command = [sys.executable, "-m", "migrate", "verify"]
    if max_steps is not None:
        command += ["--max-steps", str(max_steps)]
    command += [str(GOLDEN / "before.py"), str(GOLDEN / "after.py")]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    return elapsed, done.stdout.strip().split(": ", 1)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--full", action="store_true", help="also verify all 10,000 steps")
    parser.add_argument("--record", action="store_true", help="append the results to RESULTS.md")
    args = parser.parse_args()
    budgets: list[int | None] = [*args.steps, *([None] if args.full else [])]
    rows = []
    for budget in budgets:
        seconds, verdict = verify_seconds(budget)
        label = "none (10,000 steps)" if budget is None else str(budget)
        rows.append(f"| {label} | {seconds:.2f} | {verdict[:90]} |")
        print(rows[-1], flush=True)
    if args.record:
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        load = os.getloadavg()[0]
        lines = [
            f"\n## Verify with --max-steps ({stamp})\n",
            (
                f"`python benchmarks/verify_max_steps.py` on {platform.machine()}, "
                f"{os.cpu_count()} cores, Python {platform.python_version()}; "
                f"load average {load:.1f}. Whole `tfmigrate verify` runs on "
                "`fixtures/programs/seed_linreg_minimize` (10,000 optimizer steps).\n"
            ),
            "| --max-steps | seconds | verdict |",
            "|---|---:|---|",
            *rows,
        ]
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
