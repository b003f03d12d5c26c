"""What the command line prints: findings, summaries and diffs, as text, JSON or GitHub annotations.

Code and diffs go to stdout; messages go to stderr, so ``tfmigrate rewrite - > out.py``
and ``tfmigrate rewrite --diff | git apply`` work.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import IO

from migrate.process import (
    FAILED,
    REMOVED,
    REWRITTEN,
    SKIPPED,
    UNCHANGED,
    WOULD_REWRITE,
    FileResult,
)
from migrate.report import KEEPS_GRAPH, Finding, fallback

_DIFF_COLOURS = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}
_RESET = "\x1b[0m"


def colour_diff(diff: str) -> str:
    out = []
    for line in diff.splitlines(keepends=True):
        colour = None if line.startswith(("+++", "---")) else _DIFF_COLOURS.get(line[:1])
        out.append(f"{colour}{line.rstrip(chr(10))}{_RESET}\n" if colour else line)
    return "".join(out)


INTERNAL_HINT = "(please report; -v for the traceback)"


def internal_error_line(path: str, error: str, traceback: str | None, verbose: bool) -> str:
    """``path: internal error: Type: message (please report; ...)``, and with ``verbose`` the
    traceback under it (one entry, so ``--quiet`` keeps it with its error)."""
    line = f"{path}: internal error: {error} {INTERNAL_HINT}"
    return f"{line}\n{traceback.rstrip()}" if verbose and traceback else line


def note_line(result: FileResult) -> str:
    """``path: skipped: why`` for a path passed over, ``path: removed ...`` for a cleaned one."""
    return f"{result.path}: {result.note}" if result.status == REMOVED else f"{result.path}: skipped: {result.note}"


def finding_lines(results: Sequence[FileResult], fmt: str, verbose: bool = False) -> list[str]:
    """One line per finding and per failed file, in the chosen format."""
    lines: list[str] = []
    for result in results:
        if result.note is not None:
            lines.append(f"::notice file={result.path}::{result.note}" if fmt == "github" else note_line(result))
        if result.traceback is not None and fmt != "github":
            lines.append(internal_error_line(result.path, str(result.error), result.traceback, verbose))
        elif result.traceback is not None:
            lines.append(f"::error file={result.path}::internal error: {result.error} {INTERNAL_HINT}")
        elif result.error is not None:
            if fmt == "github":
                lines.append(f"::error file={result.path}::{result.error}")
            else:
                lines.append(f"{result.path}: error: {result.error}")
        for f in result.findings:
            if fmt == "github":
                level = "warning" if f.kind == "manual" else "notice"
                lines.append(
                    f"::{level} file={result.path},line={f.line},col={f.col},title={f.rule}::{f.message}"
                )
            else:
                lines.append(f"{result.path}:{f.line}:{f.col} {f.rule} {f.message}")
    return lines


def summary(results: Sequence[FileResult], *, write: bool) -> str:
    """``N rewritten, M unchanged, K skipped, J need manual work, E failed``, then a line per
    file left with manual work saying what is left there (see `manual_lines`)."""
    return "\n".join([_counts(results, write=write), *manual_lines(results)])


def _counts(results: Sequence[FileResult], *, write: bool) -> str:
    counts = Counter(r.status for r in results)
    changed = counts[REWRITTEN] if write else counts[WOULD_REWRITE]
    verb = "rewritten" if write else "would be rewritten"
    manual = sum(1 for r in results if r.manual)
    removed = f", {counts[REMOVED]} left-over temporary files removed" if counts[REMOVED] else ""
    return (
        f"{changed} {verb}, {counts[UNCHANGED]} unchanged, {counts[SKIPPED]} skipped, "
        f"{manual} need manual work, {counts[FAILED]} failed{removed}"
    )


#: Files named one by one in the summary; the rest are counted.
MANUAL_FILES_SHOWN = 10


def manual_lines(results: Sequence[FileResult]) -> list[str]:
    """``manual work: path: 15 findings (TF118 ×5, TF190 ×10); stays TF1 graph code:
    path:21:1 TF190 why`` for each file a person still has to finish: the reason a whole file kept
    its graph comes first, since every other finding of that file follows from it."""
    manual = [r for r in results if r.manual]
    lines = [f"manual work: {_manual_line(r)}" for r in manual[:MANUAL_FILES_SHOWN]]
    if len(manual) > MANUAL_FILES_SHOWN:
        lines.append(f"manual work: {len(manual) - MANUAL_FILES_SHOWN} more files (--format json lists them)")
    return lines


def _manual_line(result: FileResult) -> str:
    left = [f for f in result.findings if f.kind == "manual"]
    rules = ", ".join(f"{rule} ×{n}" for rule, n in sorted(Counter(f.rule for f in left).items()))
    head = f"{result.path}: {len(left)} finding{'s' if len(left) > 1 else ''} ({rules})"
    why = fallback(result.findings)
    if why is None:
        return f"{head}, the first at {result.path}:{left[0].line}:{left[0].col}"
    reason = why.message.removesuffix(KEEPS_GRAPH).rstrip("; ")
    return f"{head}; stays TF1 graph code: {result.path}:{why.line}:{why.col} {why.rule} {reason}"


def _finding(f: Finding) -> dict[str, object]:
    return {"rule": f.rule, "line": f.line, "col": f.col, "kind": f.kind, "message": f.message}


def as_json(results: Sequence[FileResult], *, write: bool) -> str:
    return json.dumps(
        {
            "files": [
                {
                    "path": r.path,
                    "status": r.status,
                    "level": r.level,
                    "error": f"internal error: {r.error}" if r.traceback is not None else r.error,
                    "cached": r.cached,
                    **({"note": r.note} if r.note is not None else {}),
                    "findings": [_finding(f) for f in r.findings],
                    "fallback": _finding(why) if (why := fallback(r.findings)) else None,
                }
                for r in results
            ],
            "summary": _counts(results, write=write),
            "manual": manual_lines(results),
        },
        indent=2,
    )


def emit(text: str, stream: IO[str] | None = None) -> None:
    """Print to stderr by default; a newline is added when missing."""
    stream = stream or sys.stderr
    stream.write(text if text.endswith("\n") else text + "\n")
