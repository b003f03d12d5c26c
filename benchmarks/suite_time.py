"""Wall time of README's test command, as a new user runs it: ``python benchmarks/suite_time.py``.

Runs the command verbatim (``bash -c``, from the repository root, in the active
environment) ``--repeat`` times and prints each run's wall time, the median, the
machine's cores and its load average before each run, so a loaded machine shows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    """The second ``bash`` block of README.md: install the test extra and run the tests."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("```bash\n")[2].split("```", 1)[0].strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    command = readme_test_command()
    print(f"command: {command}")
    print(f"cores: {os.cpu_count()}")
    times = []
    for run in range(1, args.repeat + 1):
        load = os.getloadavg()[0]
        start = time.perf_counter()
        proc = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
        summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        print(f"run {run}: {seconds:7.1f} s  (load before {load:.2f}, exit {proc.returncode})  {summary}")
        times.append(seconds)
    print(f"median: {statistics.median(times):.1f} s over {len(times)} runs")


if __name__ == "__main__":
    main()
