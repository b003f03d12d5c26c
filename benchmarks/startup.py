"""Start-up time of the command line: ``tfmigrate --help`` and ``tfmigrate run`` on the 1+1 seed.

    python benchmarks/startup.py [--repeat 15] [--record]

Each command runs as a fresh process, as a user or a pre-commit hook starts it
(``python -m migrate`` is the installed ``tfmigrate`` script's entry point); the
table gives the median and the fastest of ``--repeat`` runs, wall-clock, next to
a bare ``python -c pass``: the interpreter's own floor.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "fixtures" / "seeds" / "g01_add_session_tf1.py"

COMMANDS = {
    "python -c pass (floor)": [sys.executable, "-c", "pass"],
    "tfmigrate --help": [sys.executable, "-m", "migrate", "--help"],
    "tfmigrate run (1+1 seed, TF1)": [sys.executable, "-m", "migrate", "run", str(SEED)],
}
TARGETS = {"tfmigrate --help": 0.3, "tfmigrate run (1+1 seed, TF1)": 0.5}


def seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--record", action="store_true", help="append the results to RESULTS.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    for label, command in COMMANDS.items():
        seconds(command)  # warm the file cache
        times = [seconds(command) for _ in range(args.repeat)]
        target = TARGETS.get(label)
        verdict = (
            "" if target is None else ("met" if statistics.median(times) < target else "not met")
        )
        target_text = "" if target is None else f"< {target} s: {verdict}"
        rows.append(
            f"| {label} | {statistics.median(times):.3f} | {min(times):.3f} | {target_text} |"
        )
        print(rows[-1], flush=True)
    if args.record:
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        lines = [
            f"\n## Start-up ({stamp})\n",
            (
                f"`python benchmarks/startup.py --repeat {args.repeat}` on {platform.machine()}, "
                f"{os.cpu_count()} cores, Python {platform.python_version()}; load average "
                f"{load:.1f} at the start. Seconds per fresh process, wall-clock.\n"
            ),
            "| command | median s | fastest s | target |",
            "|---|---:|---:|---|",
            *rows,
        ]
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
