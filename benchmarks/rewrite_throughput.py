"""Rewrite throughput: tfmigrate against tf_upgrade_v2 and a bare libcst parse, side by side.

    python benchmarks/rewrite_throughput.py [--tf-python PATH] [--files 300]

Generates the corpus of ``benchmarks/tf1_corpus.py`` (300 files of 50–500 lines,
one of 10,000 and one of 20,000 lines) in a temporary folder and times, on the
same files:

- tfmigrate, single process (``rewrite --check -j 1 --no-cache``) and ``-j 2`` (which
  fills the cache), then the same ``-j 2`` command again: the cached re-run;
- ``tfmigrate check`` (report only);
- the 10,000 and 20,000-line files alone, rewritten in-process (``process.rewrite_bytes``:
  the work of one worker, stability re-run included), for linearity;
- tf_upgrade_v2 driven in-process through its ``ASTCodeUpgrader`` in the real
  TensorFlow interpreter (``--tf-python`` or ``TFMIGRATE_TF_PYTHON``), so
  TensorFlow's import is not counted;
- ``libcst.parse_module`` and ``ast.parse`` alone: the floors;
- then the same per-file comparison (in-process tfmigrate, tf_upgrade_v2, libcst parse) on
  the TF1 programs of ``fixtures/corpus``, copied to the temporary folder.

Per-file figures are over every file, the two big ones included, for tools and floors
alike. Results print as a table; ``--record`` appends them to benchmarks/RESULTS.md with the
machine, versions, load average and command.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import libcst

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf1_corpus import write_corpus

ROOT = Path(__file__).resolve().parent.parent

TF_UPGRADE_DRIVER = r"""
import json, sys, time
from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2
paths = sys.argv[1:]
times, crashes = {}, 0
for path in paths:
    upgrader = ast_edits.ASTCodeUpgrader(tf_upgrade_v2.TFAPIChangeSpec())
    start = time.perf_counter()
    try:
        upgrader.process_file(path, path + ".v2")
    except Exception:
        crashes += 1
    times[path] = time.perf_counter() - start
print(json.dumps({"times": times, "crashes": crashes}))
"""


def tfmigrate(*args: str, cwd: Path) -> float:
    """Wall time of one ``tfmigrate`` command (its exit status is the files' verdict, not a failure)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "migrate", *args], cwd=cwd, capture_output=True, text=True, env=env,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1, 3):
        raise SystemExit(f"tfmigrate {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed


def in_process(paths: list[Path]) -> dict[str, float]:
    """One worker's time per file: read-free rewrite with its stability re-run."""
    sys.path.insert(0, str(ROOT))
    from migrate.process import rewrite_bytes
    from migrate.report import RewriteConfig

    return floor(paths, lambda source, name: rewrite_bytes(source, name, RewriteConfig()))


def libcst_parse(source: bytes, name: str) -> object:
    return libcst.parse_module(source)


def ast_parse(source: bytes, name: str) -> object:
    return ast.parse(source, name)


def floor(paths: list[Path], work: Callable[[bytes, str], object]) -> dict[str, float]:
    """Seconds per file of ``work(source, name)``, reading excluded."""
    times = {}
    for path in paths:
        source = path.read_bytes()
        start = time.perf_counter()
        work(source, str(path))
        times[path.name] = time.perf_counter() - start
    return times


def tf_upgrade(paths: list[Path], python: str) -> tuple[dict[str, float], int]:
    proc = subprocess.run(
        [python, "-c", TF_UPGRADE_DRIVER, *map(str, paths)],
        capture_output=True, text=True, check=True,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"),
    )
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return {Path(k).name: v for k, v in data["times"].items()}, data["crashes"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", default=os.environ.get("TFMIGRATE_TF_PYTHON"))
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--record", action="store_true", help="append the results to RESULTS.md")
    args = parser.parse_args()

    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "corpus"
        paths = write_corpus(folder, args.files)
        small = [p for p in paths if p.name.startswith("prog_")]
        lines = sum(p.read_text().count("\n") for p in small)
        (Path(tmp) / "pyproject.toml").write_text("[tool.tfmigrate]\n")
        cwd = Path(tmp)

        rows: list[tuple[str, str]] = []
        one = tfmigrate("rewrite", "--check", "-j", "1", "--no-cache", "corpus", cwd=cwd)
        two = tfmigrate("rewrite", "--check", "-j", "2", "corpus", cwd=cwd)  # fills the cache
        cached = tfmigrate("rewrite", "--check", "-j", "2", "corpus", cwd=cwd)
        check = tfmigrate("check", "corpus", cwd=cwd)
        big = in_process([p for p in paths if p.name.startswith("big_")])
        cst_floor = floor(paths, libcst_parse)
        ast_floor = floor(paths, ast_parse)

        n = len(paths)
        ours = 1000 * one / n
        cst_ms = 1000 * sum(cst_floor.values()) / n
        check_ms = 1000 * check / n
        rows += [
            ("corpus", f"{len(small)} files, {lines} lines, + 10,000 and 20,000-line files"),
            ("tfmigrate rewrite -j 1 (whole run, incl. startup)", f"{one:.2f} s = {ours:.1f} ms/file"),
            ("tfmigrate rewrite -j 2", f"{two:.2f} s (speed-up {one / two:.2f}x)"),
            ("tfmigrate cached re-run (-j 2 again)", f"{cached:.2f} s ({two / cached:.1f}x faster)"),
            ("tfmigrate check", f"{check:.2f} s = {check_ms:.1f} ms/file"),
            ("10,000-line file (in-process)", f"{big['big_10000.py']:.2f} s"),
            ("20,000-line file (in-process)", (f"{big['big_20000.py']:.2f} s "
                                               f"({big['big_20000.py'] / big['big_10000.py']:.2f}x the 10,000-line one)")),
            ("libcst.parse_module floor", f"{cst_ms:.1f} ms/file"),
            ("ast.parse floor", f"{1000 * sum(ast_floor.values()) / n:.1f} ms/file"),
        ]
        if args.tf_python:
            upgrade, crashes = tf_upgrade(paths, args.tf_python)
            theirs = 1000 * sum(upgrade.values()) / n
            rows += [
                ("tf_upgrade_v2 (in-process, TF import excluded)",
                 f"{theirs:.1f} ms/file, {crashes} crashes"),
                ("tf_upgrade_v2 10,000 / 20,000 lines",
                 f"{upgrade['big_10000.py']:.2f} s / {upgrade['big_20000.py']:.2f} s"),
                ("ratio: tf_upgrade_v2 / tfmigrate -j 1", f"{theirs / ours:.2f}x"),
                ("ratio: tf_upgrade_v2 / tfmigrate check", f"{theirs / check_ms:.2f}x"),
            ]
        rows.append(("ratio: tfmigrate -j 1 / libcst parse", f"{ours / cst_ms:.2f}x"))
        rows += real_programs(Path(tmp) / "real", args.tf_python)

    table = "\n".join(f"| {k} | {v} |" for k, v in rows)
    command = " ".join(["python benchmarks/rewrite_throughput.py", *sys.argv[1:]])
    report = (
        f"## Rewrite throughput ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n\n"
        f"`{command}` on {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, libcst {version('libcst')}"
        f"{tf_version(args.tf_python)}; load average {load} at the start, "
        f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} at the end\n\n"
        f"| measure | result |\n|---|---|\n{table}\n"
    )
    print(report)
    if args.record:
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write("\n" + report)


def real_programs(folder: Path, tf_python: str | None) -> list[tuple[str, str]]:
    """The same per-file comparison, in-process, on the TF1 programs of ``fixtures/corpus``:
    tutorial- and research-shaped code rather than generated files."""
    folder.mkdir()
    paths = []
    for source in sorted((ROOT / "fixtures" / "corpus").glob("*.py")):
        paths.append(folder / source.name)
        paths[-1].write_bytes(source.read_bytes())
    lines = sum(p.read_text().count("\n") for p in paths)
    n = len(paths)
    ours = 1000 * sum(in_process(paths).values()) / n
    cst_ms = 1000 * sum(floor(paths, libcst_parse).values()) / n
    rows = [
        ("real programs (fixtures/corpus)", f"{n} files, {lines} lines"),
        ("tfmigrate in-process, real programs", f"{ours:.1f} ms/file ({ours / cst_ms:.2f}x libcst parse)"),
        ("libcst.parse_module, real programs", f"{cst_ms:.1f} ms/file"),
    ]
    if tf_python:
        upgrade, crashes = tf_upgrade(paths, tf_python)
        theirs = 1000 * sum(upgrade.values()) / n
        rows.append(("tf_upgrade_v2, real programs",
                     f"{theirs:.1f} ms/file, {crashes} crashes (tf_upgrade_v2 / tfmigrate {theirs / ours:.2f}x)"))
    return rows


def tf_version(python: str | None) -> str:
    if not python:
        return ""
    proc = subprocess.run(
        [python, "-c", "from importlib.metadata import version; print(version('tensorflow-cpu'))"],
        capture_output=True, text=True, check=False,
    )
    return f", TensorFlow {proc.stdout.strip() or '?'} ({python})"


if __name__ == "__main__":
    main()
