"""How the rewrites read: length against the original and a hand rewrite, anti-patterns, comments.

    python benchmarks/output_quality.py [--realworld DIR...] [-j 2] [--per-file] [--known]

Over the goldens (``fixtures/programs/NAME/before.py`` → ``after.py``) and, with
``--realworld``, every TF file of the given checkouts (rewritten in memory by
``migrate.process.rewrite_bytes``, the code path of ``tfmigrate rewrite``; a file the
rewriter leaves alone or fails on is not counted), it reports:

- lines of the rewrite per line of the original (non-blank lines), and per line of the
  hand rewrite ``fixtures/programs/NAME/hand.py`` where one exists;
- how many files show each anti-pattern of ``benchmarks/quality_checks.CHECKS``, and how
  many times;
- comments of the original missing from the rewrite;
- the longest line the rewrite emitted.

``--known`` prints instead the goldens that show each anti-pattern today, in the form of
``fixtures/programs/QUALITY_KNOWN.json`` (the offenders the test expects to fail).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.quality_checks import CHECKS, COMMENTS, code_lines, comments_lost, emitted_lines

GOLDENS = ROOT / "fixtures" / "programs"


@dataclass
class Measure:
    name: str
    ratio: float
    hand_ratio: float | None
    hits: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    longest: int = 0


def measure(name: str, before: str, after: str, hand: str | None = None) -> Measure:
    emitted = [len(line) for _, line in emitted_lines(after, before)]
    return Measure(
        name,
        code_lines(after) / max(code_lines(before), 1),
        code_lines(after) / max(code_lines(hand), 1) if hand is not None else None,
        {c.name: len(c.find(after, before)) for c in CHECKS},
        len(comments_lost(after, before)),
        max(emitted, default=0),
    )


def goldens() -> list[Measure]:
    out = []
    for folder in sorted(p for p in GOLDENS.iterdir() if (p / "after.py").exists()):
        hand = folder / "hand.py"
        out.append(measure(folder.name, (folder / "before.py").read_text(encoding="utf-8"),
                           (folder / "after.py").read_text(encoding="utf-8"),
                           hand.read_text(encoding="utf-8") if hand.exists() else None))
    return out


def _real_file(path: Path) -> Measure | str | None:
    """The file's measure; None when the rewrite leaves it as it is, or why it was not measured."""
    from migrate.process import rewrite_bytes
    from migrate.report import RewriteConfig

    source = path.read_bytes()
    try:
        result = rewrite_bytes(source, str(path), RewriteConfig())
        if not result.changed:
            return None
        return measure(str(path), source.decode("utf-8"), result.code.decode("utf-8"))
    except Exception as error:  # noqa: BLE001 - a file refused (parse, safety) or failed is counted apart
        return f"{path}: {type(error).__name__}: {error}"


def real_files(folders: Iterable[Path], jobs: int) -> tuple[list[Measure], list[str]]:
    """Measures of the files the rewriter changes, and why others were not measured."""
    paths = sorted(p for folder in folders for p in folder.rglob("*.py")
                   if b"tensorflow" in p.read_bytes())
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(_real_file, paths, chunksize=4))
    return [r for r in results if isinstance(r, Measure)], [r for r in results if isinstance(r, str)]


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"max {max(values):.2f}×, median {statistics.median(values):.2f}×"


def table(title: str, measures: list[Measure]) -> list[str]:
    hand = [m.hand_ratio for m in measures if m.hand_ratio is not None]
    longest = max(measures, key=lambda m: m.longest, default=None)
    rows = [
        f"### {title}: {len(measures)} files",
        "",
        "| measure | value |",
        "|---|---|",
        f"| lines of the rewrite per line of the original | {_spread([m.ratio for m in measures])} |",
        f"| lines of the rewrite per line of the hand rewrite ({len(hand)} files) | {_spread(hand)} |",
    ]
    for check in CHECKS:
        hit = [m for m in measures if m.hits[check.name]]
        rows.append(f"| {check.name} (files / times) | {len(hit)} / {sum(m.hits[check.name] for m in hit)} |")
    lost = [m for m in measures if m.lost]
    rows.append(f"| comments lost (files / comments) | {len(lost)} / {sum(m.lost for m in lost)} |")
    if longest is not None:
        rows.append(f"| longest emitted line | {longest.longest} characters ({longest.name}) |")
    return rows


def per_file(measures: list[Measure]) -> list[str]:
    rows = ["| file | ×original | ×hand | anti-patterns | comments lost | longest |", "|---|---|---|---|---|---|"]
    for m in measures:
        hits = ", ".join(f"{k} {v}" for k, v in m.hits.items() if v) or "-"
        hand = f"{m.hand_ratio:.2f}" if m.hand_ratio is not None else "-"
        rows.append(f"| {m.name} | {m.ratio:.2f} | {hand} | {hits} | {m.lost} | {m.longest} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--realworld", nargs="*", type=Path, default=None,
                        help="checkouts of real TF1 code to rewrite in memory and measure too")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--per-file", action="store_true", help="a row per file as well")
    parser.add_argument("--known", action="store_true", help="print the goldens failing each check, as JSON")
    args = parser.parse_args()
    gold = goldens()
    if args.known:
        known = {c.name: [m.name for m in gold if m.hits[c.name]] for c in CHECKS}
        print(json.dumps({**known, COMMENTS: [m.name for m in gold if m.lost]}, indent=1))
        return
    lines = table("goldens", gold) + [""]
    if args.per_file:
        lines += per_file(gold) + [""]
    if args.realworld:
        real, unmeasured = real_files(args.realworld, args.jobs)
        lines += table("real code (files the rewriter changes)", real)
        lines += [f"| not measured (rewrite refused or failed) | {len(unmeasured)} |", ""]
        for reason in unmeasured:
            print(f"not measured: {reason}"[:300], file=sys.stderr)
        if args.per_file:
            lines += per_file(real) + [""]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
