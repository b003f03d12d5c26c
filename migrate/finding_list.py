"""Findings as a user reads them, made in one place for every output.

Passes report what they do as they go: two passes may report one construct (a placeholder
becomes a parameter, then an argument of each step), passes run in their own order, the
program move spells class attributes by internal names (`self__x`), and libcst nodes carry
no column. `tidy` turns that into what ruff users expect: one finding per construct and
rule, sorted by line and column, 1-based columns, and the program's own names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .report import Finding, is_fallback

#: Internal spellings of the user's names, and how the user wrote them.
INTERNAL_NAMES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bself__(?=\w)"), "self."),
)


@dataclass(frozen=True)
class Merge:
    """Messages that passes write separately about one construct, and the one they become.

    Each pattern names the construct as ``subject`` (empty when the line is the construct)
    and captures what the message adds; messages matching one merge, on one line under one
    rule and about one subject, become ``render(subject, captured)``, ``captured`` holding
    each group's values in report order.
    """

    patterns: tuple[re.Pattern[str], ...]
    render: Callable[[str, dict[str, list[str]]], str]


def _joined(values: list[str]) -> str:
    return ", ".join(values)


def _placeholder(subject: str, captured: dict[str, list[str]]) -> str:
    steps = captured.get("step")
    return f"placeholder {subject} → argument of {_joined(steps)}" if steps else \
        f"placeholder {subject} becomes a function argument"


def _run_sites(_: str, captured: dict[str, list[str]]) -> str:
    steps = captured["step"]
    return f"run site{'s' if len(steps) > 1 else ''} → {_joined(steps)}"


def _renamed_call(subject: str, captured: dict[str, list[str]]) -> str:
    hows = " and ".join(captured.get("how", []))
    if "name" not in captured:
        return f"arguments of {subject} {hows}"
    return f"{subject} → {_joined(captured['name'])}" + (f", arguments {hows}" if hows else "")


MERGES: tuple[Merge, ...] = (
    Merge(
        (re.compile(r"placeholder (?P<subject>\S+) becomes a function argument"),
         re.compile(r"placeholder (?P<subject>\S+) → argument of (?P<step>\S+)")),
        _placeholder,
    ),
    Merge((re.compile(r"run site → (?P<step>\S+\(\))(?P<subject>)"),), _run_sites),
    Merge(
        (re.compile(r"(?P<subject>tf\.[\w.]+) → (?P<name>tf\.[\w.]+)"),
         re.compile(r"arguments of (?P<subject>tf\.[\w.]+) (?P<how>adapted to TF2|passed by their TF2 names)")),
        _renamed_call,
    ),
)


def tidy(findings: Sequence[Finding], source: str) -> list[Finding]:
    """One finding per construct and rule, sorted by (line, column), columns 1-based, names
    as the user wrote them. ``source`` gives each column: a finding at column 0 (a pass that
    knows only its statement's line) points at that statement's first character; any
    other column is a stdlib ``col_offset`` (0-based, in UTF-8 bytes)."""
    lines = re.split(r"\r\n|\r|\n", source)
    named = [replace(f, message=_user_names(f.message)) for f in dict.fromkeys(findings)]
    merged = _merged(named)
    placed = [replace(f, col=_column(lines, f.line, f.col)) for f in merged]
    return sorted(placed, key=lambda f: (f.line, f.col, not is_fallback(f)))


def _user_names(message: str) -> str:
    for pattern, spelling in INTERNAL_NAMES:
        message = pattern.sub(spelling, message)
    return message


def _merged(findings: list[Finding]) -> list[Finding]:
    """Findings of one construct merged, at the place of its first."""
    groups: dict[tuple[object, ...], list[tuple[Finding, dict[str, str]]]] = {}
    out: list[Finding | tuple[object, ...]] = []
    for f in findings:
        hit = _match(f.message)
        if hit is None:
            out.append(f)
            continue
        merge, subject, captured = hit
        key = (f.rule, f.line, f.col, f.kind, merge, subject)
        if key not in groups:
            groups[key] = []
            out.append(key)
        groups[key].append((f, captured))
    return [entry if isinstance(entry, Finding) else _render(groups[entry]) for entry in out]


def _match(message: str) -> tuple[Merge, str, dict[str, str]] | None:
    for merge in MERGES:
        for pattern in merge.patterns:
            m = pattern.fullmatch(message)
            if m:
                captured = {k: v for k, v in m.groupdict().items() if k != "subject" and v}
                return merge, m.group("subject"), captured
    return None


def _render(group: list[tuple[Finding, dict[str, str]]]) -> Finding:
    first = group[0][0]
    if len(group) == 1:
        return first
    merge, subject, _ = _match(first.message)  # type: ignore[misc]
    captured: dict[str, list[str]] = {}
    for _, values in group:
        for name, value in values.items():
            if value not in captured.setdefault(name, []):
                captured[name].append(value)
    return replace(first, message=merge.render(subject, captured))


def _column(lines: list[str], line: int, col: int) -> int:
    if not 0 < line <= len(lines):
        return col + 1
    text = lines[line - 1]
    if col == 0:
        return len(text) - len(text.lstrip()) + 1
    return len(text.encode("utf-8")[:col].decode("utf-8", "replace")) + 1
