"""Run tracing: ``tf.RunOptions(trace_level=...)`` and ``tf.RunMetadata()`` given to a
session run, and ``writer.add_run_metadata(...)``, go, with a finding.

They record how a step ran (op timings, devices) for TensorBoard's profile, not what it
computes. TF2 has no session run to trace: its profiler (``tf.profiler.experimental.start
(logdir)`` / ``stop()``, or ``tf.summary.trace_on`` / ``trace_export`` under a writer) traces
whatever runs between its calls, which is for the user to place. Only options and metadata
the program makes for nothing but its runs and ``add_run_metadata`` are taken out; any other
use leaves the file as it was.
"""

from __future__ import annotations

from collections import Counter

import libcst as cst

from .imports import Aliases
from .report import Finding
from .rules.session import RULE as SESSION_RULE
from .session_config import NameUses, Strip, assigned

TRACING_CALLS = frozenset({"RunOptions", "RunMetadata"})
RUN_KEYWORDS = frozenset({"options", "run_metadata"})
NOTE = ("run tracing ({what}) dropped: TF2 has no session run to trace; its profiler traces what runs "
        "between tf.profiler.experimental.start(logdir) and stop()")


class _Collect(cst.CSTVisitor):
    """Tracing objects (``N = tf.RunOptions(...)``), their uses in runs, and `add_run_metadata`."""

    def __init__(self, aliases: Aliases, lines: dict[int, int]) -> None:
        self.aliases, self.lines = aliases, lines
        self.names: dict[str, str] = {}  # name -> RunOptions | RunMetadata
        self.accounted: Counter[str] = Counter()
        self.statements: set[int] = set()
        self.args: set[int] = set()
        self.found: list[tuple[int, str]] = []  # (line, what) of each construct taken out

    def _tracing(self, node: cst.BaseExpression) -> str | None:
        path = self.aliases.resolve(node.func) if isinstance(node, cst.Call) else None
        return path if path in TRACING_CALLS else None

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        line = self.lines.get(id(node), 0)
        pair = assigned(node)
        if pair is not None and isinstance(pair[0], cst.Name) and (kind := self._tracing(pair[1])):
            self.names[pair[0].value] = kind
            self.accounted[pair[0].value] += 1
            self.statements.add(id(node))
            self.found.append((line, f"tf.{kind}"))
            return
        if len(node.body) == 1 and isinstance(node.body[0], cst.Expr) and isinstance(node.body[0].value, cst.Call):
            call = node.body[0].value
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "add_run_metadata":
                self.statements.add(id(node))
                self.found.append((line, "add_run_metadata"))
                for arg in call.args:
                    if isinstance(arg.value, cst.Name):
                        self.accounted[arg.value.value] += 1

    def visit_Call(self, node: cst.Call) -> None:
        if not (isinstance(node.func, cst.Attribute) and node.func.attr.value == "run"):
            return
        for arg in node.args:
            if arg.keyword is None or arg.keyword.value not in RUN_KEYWORDS:
                continue
            if isinstance(arg.value, cst.Name):
                self.accounted[arg.value.value] += 1
                self.args.add(id(arg))
            elif kind := self._tracing(arg.value):
                self.args.add(id(arg))
                self.found.append((self.lines.get(id(node), 0), f"tf.{kind}"))


def take_out(module: cst.Module, aliases: Aliases, lines: dict[int, int]) -> tuple[cst.Module, list[Finding]] | None:
    """The module without its run tracing, and one finding naming what went; None
    when it has none, or one used otherwise (the file is then left as it was)."""
    collect = _Collect(aliases, lines)
    module.visit(collect)
    if not collect.found:
        return None
    uses = NameUses()
    module.visit(uses)
    if any(uses.count[name] != collect.accounted[name] for name in collect.names):
        return None
    if any(f[1] == "add_run_metadata" for f in collect.found) and not collect.names:
        return None  # metadata made elsewhere: not this program's tracing
    found = sorted(collect.found)
    what = ", ".join(dict.fromkeys(w for _, w in found))
    finding = Finding(SESSION_RULE.id, found[0][0], 0, NOTE.format(what=what), "info")
    return module.visit(Strip(collect.statements, collect.args, lines, move_comments=False)), [finding]
