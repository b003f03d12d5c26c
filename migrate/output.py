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
    """``N rewritten, M unchanged, K skipped, J need manual work, E failed``."""
    counts = Counter(r.status for r in results)
    changed = counts[REWRITTEN] if write else counts[WOULD_REWRITE]
    verb = "rewritten" if write else "would be rewritten"
    manual = sum(1 for r in results if r.manual)
    removed = f", {counts[REMOVED]} left-over temporary files removed" if counts[REMOVED] else ""
    return (
        f"{changed} {verb}, {counts[UNCHANGED]} unchanged, {counts[SKIPPED]} skipped, "
        f"{manual} need manual work, {counts[FAILED]} failed{removed}"
    )


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
                    "findings": [
                        {"rule": f.rule, "line": f.line, "col": f.col, "kind": f.kind, "message": f.message}
                        for f in r.findings
                    ],
                }
                for r in results
            ],
            "summary": summary(results, write=write),
        },
        indent=2,
    )


def emit(text: str, stream: IO[str] | None = None) -> None:
    """Print to stderr by default; a newline is added when missing."""
    stream = stream or sys.stderr
    stream.write(text if text.endswith("\n") else text + "\n")
