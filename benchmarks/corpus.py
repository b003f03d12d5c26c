"""Reach on the open TF1 corpus: rewrite, then verify, every program in ``fixtures/corpus/``.

    python benchmarks/corpus.py [--max-steps 50] [--timeout 60] [-j 2] [--only NAME ...] [--record]

For each program: ``migrate.api.rewrite_source`` (level idiomatic / partial /
untouched), then ``runtime.verdict.verify_sources`` on the original and the
rewrite with ``--max-steps`` (equivalent / different / unverified, with a
reason). A crash of either tool is caught and counted. Prints one line per
program and a summary table; ``--record`` appends the table to
``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import platform
import re
import sys
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate.api import rewrite_source
from migrate.helper_code import helper_lines
from runtime.verdict import Options, verify_sources

CORPUS = ROOT / "fixtures" / "corpus"
RESULTS = ROOT / "benchmarks" / "RESULTS.md"


@dataclass
class Outcome:
    name: str
    level: str = ""  # idiomatic | partial | untouched | "" when the rewrite crashed
    status: str = ""  # equivalent | different | unverified | "" when not verified
    reason: str = ""
    crash: str = ""  # "rewrite: Exc" or "verify: Exc"
    seconds: float = 0.0
    findings: int = 0
    notes: list[str] = field(default_factory=list)


def reason_group(reason: str) -> str:
    """A coarse bucket for an unverified reason, so the table stays short."""
    m = re.match(r"unsupported API (.+) \((original|rewrite)\)$", reason)
    if m:
        return f"unsupported API ({m.group(2)})"
    m = re.match(r"the original itself fails: (\w+)", reason)
    if m:
        return f"original fails ({m.group(1)})"
    m = re.match(r"the (original|rewrite) timed out", reason)
    if m:
        return f"timeout ({m.group(1)})"
    if "memory cap" in reason:
        return "memory cap"
    return reason.split(":")[0][:60] or "other"


def evaluate(program: Path, options: Options) -> Outcome:
    """Rewrite and verify one program; crashes become part of the outcome."""
    out = Outcome(program.stem)
    start = time.perf_counter()
    source = program.read_bytes()
    try:
        result = rewrite_source(source, filename=program.name)
    except Exception as exc:  # noqa: BLE001 - a crash of the rewriter is a result here
        out.crash = f"rewrite: {type(exc).__name__}: {exc}"[:200]
        out.seconds = time.perf_counter() - start
        return out
    out.level = result.level
    out.findings = len(result.findings)
    new = result.code.decode("utf-8") if isinstance(result.code, bytes) else result.code
    try:
        with tempfile.TemporaryDirectory() as workdir:
            verdict = verify_sources(source.decode("utf-8"), new, Path(workdir),
                                     replace(options, vouched=helper_lines(new)), filename=program.name)
        out.status, out.reason = verdict.status, verdict.reason
    except Exception as exc:  # noqa: BLE001 - a crash of the verifier is a result here
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        out.crash = f"verify: {type(exc).__name__}: {exc}{where}"[:200]
    out.seconds = time.perf_counter() - start
    return out


def pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:.1f}% ({n})" if total else "-"


def table(outcomes: list[Outcome], options: Options, wall: float) -> str:
    """The summary as Markdown."""
    n = len(outcomes)
    levels = collections.Counter(o.level for o in outcomes if o.level)
    statuses = collections.Counter(o.status for o in outcomes if o.status)
    crashes = [o for o in outcomes if o.crash]
    # "equivalent" where both sides raise the same exception says nothing about the numbers
    both_fail = sum(o.status == "equivalent" and "; both raise" in o.reason for o in outcomes)
    reasons = collections.Counter(reason_group(o.reason) for o in outcomes
                                  if o.status == "unverified")
    api_matches = (re.match(r"unsupported API (.+) \(\w+\)$", o.reason)
                   for o in outcomes if o.status == "unverified")
    apis = collections.Counter(m.group(1) for m in api_matches if m)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## TF1 corpus reach ({stamp})",
        "",
        (f"`python benchmarks/corpus.py --max-steps {options.max_steps} --timeout "
         f"{options.timeout:g}` over {n} programs in `fixtures/corpus/`; Python "
         f"{platform.python_version()}, {wall:.0f} s wall."),
        "",
        ("| programs | idiomatic | partial | untouched | equivalent | of which both fail "
         "| different | unverified | crashes |"),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        (f"| {n} | {pct(levels['idiomatic'], n)} | {pct(levels['partial'], n)} | "
         f"{pct(levels['untouched'], n)} | {pct(statuses['equivalent'], n)} | "
         f"{pct(both_fail, n)} | {pct(statuses['different'], n)} | {pct(statuses['unverified'], n)} | "
         f"{pct(len(crashes), n)} |"),
        "",
    ]
    if reasons:
        lines += ["| unverified, by reason | programs |", "|---|---:|"]
        lines += [f"| {r} | {pct(c, n)} |" for r, c in reasons.most_common()]
        lines.append("")
    if apis:
        lines.append("Unsupported APIs named: " + ", ".join(
            f"`{a}` ({c})" for a, c in apis.most_common()) + ".")
        lines.append("")
    failing = collections.Counter(o.reason.split("; both raise ")[1] for o in outcomes
                                  if o.status == "equivalent" and "; both raise" in o.reason)
    if failing:
        lines.append("Equivalent because both sides raise the same exception: " + ", ".join(
            f"`{e}` ({c})" for e, c in failing.most_common()) + ".")
        lines.append("")
    different = [o for o in outcomes if o.status == "different"]
    if different:
        lines.append("Different: " + "; ".join(f"`{o.name}` — {o.reason[:120]}"
                                              for o in different) + ".")
        lines.append("")
    if crashes:
        lines.append("Crashes: " + "; ".join(f"`{o.name}` — {o.crash}" for o in crashes) + ".")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-steps", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="program names (without .py)")
    parser.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    args = parser.parse_args()
    options = Options(max_steps=args.max_steps, timeout=args.timeout)
    programs = sorted(p for p in CORPUS.glob("*.py") if not args.only or p.stem in args.only)
    start = time.perf_counter()
    outcomes = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for out in pool.map(lambda p: evaluate(p, options), programs):
            outcomes.append(out)
            what = out.crash or f"{out.status}: {out.reason}"
            print(f"{out.name:32s} {out.level or '-':10s} {out.seconds:5.1f}s  {what[:150]}",
                  flush=True)
    text = table(outcomes, options, time.perf_counter() - start)
    print()
    print(text)
    if args.record:
        previous = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
        RESULTS.write_text(previous.rstrip("\n") + "\n\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
