"""Which lines of a program ran, and which changed lines of a rewrite never did.

A comparison can only vouch for code that ran: a rewrite that changes a branch
the run never takes (``if step > 10**9: loss = loss * 2``) prints and trains
exactly as its original does, and is still wrong. ``verify`` therefore runs
each program under line coverage (``LineCoverage``, started in the child by
``runtime.trace``) and calls a rewrite equivalent only when every statement it
changed ran (``changed_statements``, ``not_run``).

Why ``sys.settrace`` and not ``coverage.py``: Python 3.10 and 3.11 have no
``sys.monitoring``, and only the program's own file matters. The global tracer
returns a line tracer for the program's frames only, so engine and library
frames cost one cached filename check per call and no line events; that is
close to what ``coverage.py``'s C tracer pays for a file it does not measure,
without a dependency.
"""

from __future__ import annotations

import ast
import difflib
import os
import sys
import threading
import types
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# Statements whose first line runs only when the statement itself does, plus ``except``
# clauses, whose line runs only when an exception is matched against them.
_NODES = (ast.stmt, ast.excepthandler)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class LineCoverage:
    """The line numbers of one file that ran, in every thread started after ``start``."""

    def __init__(self, program: str) -> None:
        self.program = program
        self._target = os.path.realpath(program)
        self._is_program: dict[str, bool] = {}
        self.lines: set[int] = set()

    def start(self) -> LineCoverage:
        """Trace from now on: frames created later (the program's module frame too)."""
        sys.settrace(self._call)
        threading.settrace(self._call)
        return self

    def _call(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        filename = frame.f_code.co_filename
        mine = self._is_program.get(filename)
        if mine is None:
            mine = filename == self.program or os.path.realpath(filename) == self._target
            self._is_program[filename] = mine
        return self._line if mine else None

    def _line(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines.add(frame.f_lineno)
        return self._line


@dataclass(frozen=True)
class Changed:
    """A changed line of the rewrite and the line that shows whether it ran.

    ``probe`` is the first line of the innermost statement covering ``line``;
    ``scope`` (a statement the compiler emits no code for: ``global``, a bare
    annotation, a docstring, dead code) is the body of the function or class it
    is in, which ran when any of its lines did (``None``: the module, which ran).
    """

    line: int
    probe: int | None
    scope: tuple[int, int] | None = None


def changed_lines(old_src: str, new_src: str) -> list[int]:
    """The 1-based lines of ``new_src`` that are not in ``old_src`` (a line diff)."""
    old, new = old_src.splitlines(), new_src.splitlines()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [
        j + 1
        for tag, _, _, j1, j2 in matcher.get_opcodes()
        if tag in ("replace", "insert")
        for j in range(j1, j2)
    ]


def changed_statements(old_src: str, new_src: str) -> list[Changed]:
    """Each changed line of ``new_src`` that holds code, with the statement that covers it.

    Blank and comment lines are left out. An unparsable rewrite has no statements:
    it cannot run, so the comparison already says so.
    """
    try:
        tree = ast.parse(new_src)
        code = compile(tree, "<rewrite>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return []
    executable = _executable_lines(code)
    spans = _spans(tree)
    text = new_src.splitlines()
    found = []
    for line in changed_lines(old_src, new_src):
        stripped = text[line - 1].strip()
        if not stripped or stripped.startswith("#"):
            continue
        covering = [span for span in spans if span[0] <= line <= span[1]]
        if not covering:
            continue
        first, _, scope = max(covering, key=lambda span: span[0])
        if first in executable:
            found.append(Changed(line, first))
        else:
            found.append(Changed(line, None, scope))
    return found


def not_run(changed: Iterable[Changed], lines_run: Iterable[int]) -> list[int]:
    """The changed lines whose statement never ran."""
    ran = set(lines_run)
    missed = []
    for change in changed:
        if change.probe is not None:
            reached = change.probe in ran
        elif change.scope is None:
            reached = True
        else:
            low, high = change.scope
            reached = any(low <= line <= high for line in ran)
        if not reached:
            missed.append(change.line)
    return missed


def ranges(lines: Iterable[int]) -> str:
    """``12, 30-31`` for ``[12, 30, 31]``."""
    parts: list[str] = []
    ordered = sorted(set(lines))
    start = previous = None
    for line in [*ordered, None]:
        if previous is not None and line == previous + 1:
            previous = line
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = line
    return ", ".join(parts)


def _executable_lines(code: types.CodeType) -> set[int]:
    """Lines the compiler emitted code for, in ``code`` and the code objects it holds."""
    lines = {line for _, _, line in code.co_lines() if line is not None}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            lines |= _executable_lines(const)
    return lines


def _spans(tree: ast.Module) -> list[tuple[int, int, tuple[int, int] | None]]:
    """Per statement: its first line (a decorator's, if it has any), its last line, and the
    body span of the function or class it is in."""
    spans: list[tuple[int, int, tuple[int, int] | None]] = []

    def visit(node: ast.AST, scope: tuple[int, int] | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, _NODES):
                decorators = getattr(child, "decorator_list", [])
                first = min([child.lineno, *(d.lineno for d in decorators)])
                spans.append((first, child.end_lineno or child.lineno, scope))
                if isinstance(child, _SCOPES):
                    inner = (child.body[0].lineno, child.end_lineno or child.lineno)
            visit(child, inner)

    visit(tree, None)
    return spans
