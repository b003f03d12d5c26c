"""A mutation campaign against ``verify``: wrong rewrites it must call *different*.

    python benchmarks/verify_mutations.py [--limit N] [--kinds a,b] [--seed S] [-j 2]
        [--max-steps N] [--resume] [--record]

Each mutant is a golden's ``after.py`` (``fixtures/programs/<name>``) with one plausible
migration mistake (``benchmarks/mutations.py``). It runs on real TensorFlow 2.21 (the
referee, ``TFMIGRATE_TF_PYTHON`` or ``--tf-python``, through the warm server of
``tests/tf_runner.py``) to learn whether it truly behaves differently from the golden —
printed output beyond ``rtol 1e-4, atol 1e-6``, or the exit status — and is verified against
the golden's ``before.py`` on the engine. Outcomes:

- caught: verify says *different*;
- unverified: verify cannot decide (and says why);
- WRONG-EQUIVALENT: verify says *equivalent* while TensorFlow's output differs;
- benign: *equivalent*, and TensorFlow prints the same (within the tolerance).

Only goldens whose own pair verifies *equivalent* and whose ``after.py`` prints the same on
two TensorFlow runs take part. Results go to ``.verify_mutations/`` (one JSON line per
mutant as it completes in ``seed<S>.jsonl``, ``--resume`` skips those already there;
``seed<S>.json`` at the end; ``--ids`` runs named mutants again into ``rerun.json``);
``--record`` appends the table to ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import platform
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from mutations import KINDS, Mutant, all_mutants, mutate, plan

from runtime.verdict import Options, verify_files
from tests import tf_runner
from tests.rewrite.check_on_tf import NUMBER, PLAIN

GOLDENS = ROOT / "fixtures" / "programs"
OUT = ROOT / ".verify_mutations"
REFEREE = Path.home() / ".cache" / "tfmigrate-ci" / "tf221" / "bin" / "python"
RTOL, ATOL = 1e-4, 1e-6
# The engine seeds NumPy's and Python's global generators with 0 before a program starts
# (runtime.sandbox); the referee run does the same, so unseeded NumPy draws repeat.
PRELUDE = "import numpy, random\nnumpy.random.seed(0)\nrandom.seed(0)\n" + PLAIN
OUTCOMES = ["caught", "unverified", "WRONG-EQUIVALENT", "benign", "tf-timeout", "error"]


@dataclass
class TFRun:
    rc: int | None  # None: timed out
    stdout: str


@dataclass
class Result:
    id: str
    program: str
    kind: str
    index: int
    outcome: str
    tf: str  # "same" | "close" | "differs" | "timeout"
    tf_detail: str
    verdict: str
    reason: str
    seconds: float
    diff: str
    tf_stdout: str = ""  # the mutant's, on TensorFlow


def run_on_tf(python: str, program: Path, stdin: str, timeout: float) -> TFRun:
    try:
        done = tf_runner.run([python, "-c", PRELUDE, str(program)], cwd=program.parent,
                             input=stdin, timeout=timeout)
    except tf_runner.subprocess.TimeoutExpired:
        return TFRun(None, "")
    return TFRun(done.returncode, done.stdout)


def compare_tf(golden: TFRun, mutant: TFRun) -> tuple[str, str]:
    """("same" | "close" | "differs" | "timeout", what differs first)."""
    if mutant.rc is None:
        return "timeout", "the mutant timed out on TensorFlow"
    if mutant.rc != golden.rc:
        return "differs", f"exit status {golden.rc} vs {mutant.rc}"
    if mutant.stdout == golden.stdout:
        return "same", ""
    # Text between numbers, with runs of spaces as one: NumPy pads an array's columns to its
    # longest number, so a column's width is not a difference.
    words = [[" ".join(w.split()) for w in NUMBER.split(run.stdout)] for run in (golden, mutant)]
    numbers = [[float(n) for n in NUMBER.findall(run.stdout)] for run in (golden, mutant)]
    if words[0] != words[1] or len(numbers[0]) != len(numbers[1]):
        line = next((f"{a!r} vs {b!r}" for a, b in zip(golden.stdout.splitlines(), mutant.stdout.splitlines())
                     if a != b), "the mutant prints more or fewer lines")
        return "differs", f"printed text: {line}"[:300]
    for i, (a, b) in enumerate(zip(*numbers)):
        if abs(a - b) > ATOL + RTOL * abs(a):
            return "differs", f"printed number {i}: {a!r} vs {b!r}"
    return "close", "printed numbers within rtol 1e-4"


def stdin_of(golden: Path) -> str:
    path = golden / "stdin.txt"
    return path.read_text() if path.is_file() else ""


def in_copy(golden: Path, source: str, work: Path) -> Path:
    """``source`` as ``after.py`` in a fresh copy of the golden's folder."""
    folder = Path(tempfile.mkdtemp(dir=work)) / golden.name
    shutil.copytree(golden, folder)
    (folder / "after.py").write_text(source)
    return folder / "after.py"


def verify(golden: Path, program: Path, args: argparse.Namespace) -> tuple[str, str]:
    options = Options(timeout=args.timeout, max_steps=args.max_steps, attribute=False,
                      stdin=stdin_of(golden).encode())
    verdict = verify_files(golden / "before.py", program, options)
    return verdict.status, verdict.reason


def baseline(golden: Path, source: str, args: argparse.Namespace, work: Path) -> TFRun | str:
    """The golden's TensorFlow output, or why the golden cannot take part (``source``: its
    ``after.py`` as read when the campaign started)."""
    status, reason = verify(golden, in_copy(golden, source, work), args)
    if status != "equivalent":
        return f"its own pair is {status}: {reason}"[:200]
    runs = [run_on_tf(args.tf_python, in_copy(golden, source, work),
                      stdin_of(golden), args.timeout) for _ in range(2)]
    if runs[0].rc is None or runs[0].rc != 0:
        return f"after.py does not run on TensorFlow (exit {runs[0].rc})"
    if runs[0].stdout != runs[1].stdout:
        return "after.py prints differently on two TensorFlow runs"
    return runs[0]


def classify(tf: str, status: str) -> str:
    if tf == "timeout":
        return "tf-timeout"
    if status == "different":
        return "caught"
    if status == "unverified":
        return "unverified"
    if status == "equivalent":
        return "WRONG-EQUIVALENT" if tf == "differs" else "benign"
    return "error"


def run_mutant(mutant: Mutant, original: str, golden_tf: TFRun, args: argparse.Namespace, work: Path) -> Result:
    """One mutant of ``original`` (the golden's ``after.py`` as read when the campaign started:
    goldens edited while it runs do not change which sites the mutants name)."""
    start = time.perf_counter()
    golden = GOLDENS / mutant.program
    source = mutate(original, mutant.kind, mutant.index)
    program = in_copy(golden, source, work)
    try:
        tf_run = run_on_tf(args.tf_python, program, stdin_of(golden), args.timeout)
        tf, detail = compare_tf(golden_tf, tf_run)
        try:
            status, reason = verify(golden, program, args)
        except Exception as error:  # noqa: BLE001  (a bug of ours is this mutant's result)
            status, reason = "error", f"{type(error).__name__}: {error}"
    finally:
        shutil.rmtree(program.parent.parent, ignore_errors=True)
    diff = "".join(difflib.unified_diff(original.splitlines(True), source.splitlines(True),
                                        "after.py", "mutant.py", n=1))
    return Result(mutant.id, mutant.program, mutant.kind, mutant.index, classify(tf, status), tf,
                  detail, status, reason[:400], round(time.perf_counter() - start, 2), diff,
                  tf_run.stdout[-4000:])


def table(results: list[Result]) -> list[str]:
    """One row per kind: how many, how many TF tells apart, and what verify said."""
    rows = [("| kind | mutants | TF differs | caught | caught of TF-differs | unverified | "
             "WRONG-EQUIVALENT | benign | other |"),
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    kinds = sorted({r.kind for r in results}, key=list(KINDS).index)
    for kind in [*kinds, None]:
        rs = [r for r in results if kind is None or r.kind == kind]
        n = Counter(r.outcome for r in rs)
        differs = [r for r in rs if r.tf == "differs"]
        caught_differs = sum(r.outcome == "caught" for r in differs)
        rate = f"{caught_differs}/{len(differs)} ({100 * caught_differs / len(differs):.0f}%)" if differs else "–"
        name = f"`{kind}`" if kind else "**all**"
        rows.append(f"| {name} | {len(rs)} | {len(differs)} | {n['caught']} | {rate} | {n['unverified']} | "
                    f"{n['WRONG-EQUIVALENT']} | {n['benign']} | {n['tf-timeout'] + n['error']} |")
    return rows


def load(path: Path) -> dict[str, Result]:
    if not path.is_file():
        return {}
    return {r.id: r for r in (Result(**json.loads(line)) for line in path.read_text().splitlines() if line)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="run the first N mutants of the seed's order")
    parser.add_argument("--kinds", help=f"comma-separated, of: {', '.join(KINDS)}")
    parser.add_argument("--programs", help="comma-separated golden names (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ids", help="comma-separated mutant ids (program:kind:index) to run again")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--max-steps", type=int, help="verify with this step budget (default: none)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per program run")
    parser.add_argument("--tf-python", default=os.environ.get("TFMIGRATE_TF_PYTHON", str(REFEREE)))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--resume", action="store_true", help="skip mutants already in the JSON lines")
    parser.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    parser.add_argument("--report-only", action="store_true",
                        help="run nothing: report seed<S>.jsonl, with rerun.jsonl's results over it")
    args = parser.parse_args()
    os.environ["TFMIGRATE_TF_PYTHON"] = args.tf_python  # the runner forks from a warm server for it
    kinds = args.kinds.split(",") if args.kinds else list(KINDS)
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    names = args.programs.split(",") if args.programs else sorted(
        p.name for p in GOLDENS.iterdir() if (p / "after.py").is_file())
    sources = {name: (GOLDENS / name / "after.py").read_text() for name in names}
    args.out.mkdir(parents=True, exist_ok=True)
    if args.report_only:
        args.stem = f"seed{args.seed}"
        merged = load(args.out / f"{args.stem}.jsonl")
        merged.update({k: r for k, r in load(args.out / "rerun.jsonl").items() if k in merged})
        skipped_path = args.out / f"{args.stem}.skipped.json"
        report(list(merged.values()), args,
               json.loads(skipped_path.read_text()) if skipped_path.is_file() else {})
        return
    args.stem = "rerun" if args.ids else f"seed{args.seed}"
    lines_path = args.out / f"{args.stem}.jsonl"
    done = load(lines_path) if args.resume else {}
    if not args.resume:
        lines_path.write_text("")
    mutants = [m for m in plan(sources, kinds, args.seed, args.limit) if m.id not in done]
    if args.ids:
        wanted = set(args.ids.split(","))
        mutants = [m for m in all_mutants(sources, kinds) if m.id in wanted]
    print(f"{len(mutants)} mutants to run ({len(done)} already done) over "
          f"{len({m.program for m in mutants})} goldens", flush=True)
    work = Path(tempfile.mkdtemp(prefix="verify-mutations-"))
    lock = threading.Lock()
    results = list(done.values())
    try:
        with ThreadPoolExecutor(args.jobs) as pool:
            programs = sorted({m.program for m in mutants})
            bases = dict(zip(programs, pool.map(lambda n: baseline(GOLDENS / n, sources[n], args, work), programs)))
        skipped = {n: why for n, why in bases.items() if isinstance(why, str)}
        for name, why in skipped.items():
            print(f"skip golden {name}: {why}", flush=True)
        if not args.ids:
            (args.out / f"{args.stem}.skipped.json").write_text(json.dumps(skipped, indent=1))
        mutants = [m for m in mutants if m.program not in skipped]
        start = time.perf_counter()
        with ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_mutant, m, sources[m.program], bases[m.program], args, work) for m in mutants]
            for i, future in enumerate(as_completed(futures), 1):
                result = future.result()
                with lock:
                    results.append(result)
                    with lines_path.open("a") as handle:
                        handle.write(json.dumps(asdict(result)) + "\n")
                elapsed = time.perf_counter() - start
                print(f"[{i}/{len(mutants)} {elapsed / i:.1f} s each] {result.outcome:16} {result.id} "
                      f"(TF {result.tf}; {result.reason[:90]})", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(results, args, skipped)


def report(results: list[Result], args: argparse.Namespace, skipped: dict[str, str]) -> None:
    rows = table(results)
    print("\n".join(["", *rows]))
    wrong = [r for r in results if r.outcome == "WRONG-EQUIVALENT"]
    print(f"\n{len(wrong)} wrong-equivalent mutants")
    for r in wrong:
        print(f"\n### {r.id}: TF {r.tf_detail}; verify: {r.reason}\n{r.diff}")
    seconds = [r.seconds for r in results]
    mean = sum(seconds) / len(seconds) if seconds else 0.0
    (args.out / f"{args.stem}.json").write_text(json.dumps({
        "seed": args.seed, "max_steps": args.max_steps, "skipped_goldens": skipped,
        "mean_seconds_per_mutant": mean, "results": [asdict(r) for r in results]}, indent=1))
    if args.record:
        record(rows, wrong, args, mean, len(skipped))


def record(rows: list[str], wrong: list[Result], args: argparse.Namespace, mean: float, skipped: int) -> None:
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    budget = f"--max-steps {args.max_steps}" if args.max_steps else "no step budget"
    text = [
        f"\n## Verify mutation campaign ({stamp})\n",
        (f"`python benchmarks/verify_mutations.py --seed {args.seed}"
        f"{f' --limit {args.limit}' if args.limit else ''}` on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, `-j {args.jobs}`, {budget}; "
        f"{mean:.1f} s of wall time per mutant and worker (one TF 2.21 run and one verify). "
        f"Mutants of the goldens' `after.py` (`benchmarks/mutations.py`), {skipped} goldens left out "
        "(their own pair is not *equivalent*, or they print differently on two TF runs). "
        "*TF differs*: real TF 2.21 prints other text, numbers beyond rtol 1e-4, or exits otherwise.\n"),
        *rows,
        "",
        f"Wrong equivalents: {len(wrong)}" + ("" if not wrong else ": " + ", ".join(f"`{r.id}`" for r in wrong)),
        "",
    ]
    with (ROOT / "benchmarks" / "RESULTS.md").open("a") as handle:
        handle.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
