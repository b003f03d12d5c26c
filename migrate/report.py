"""Findings, configuration and results shared by every rewrite pass."""

from __future__ import annotations

from dataclasses import dataclass, field

#: The end of the message of the finding that says why a whole file stays graph code.
KEEPS_GRAPH = "the file keeps TF1 graph semantics under tf.compat.v1"


@dataclass(frozen=True)
class Finding:
    """One thing the rewriter did or could not do, tied to a source position."""

    rule: str
    line: int
    col: int
    message: str
    kind: str  # "fixed" | "manual" | "info"


@dataclass(frozen=True)
class RewriteConfig:
    """Which rules may change code (`select` None means all), and the line length emitted
    code keeps (None: the file's own, `wrap_lines.line_limit`)."""

    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    line_length: int | None = None

    def enabled(self, rule_id: str) -> bool:
        if rule_id in self.ignore:
            return False
        return self.select is None or rule_id in self.select


@dataclass
class RewriteResult:
    code: bytes | str
    changed: bool
    level: str  # "idiomatic" | "partial" | "untouched"
    findings: list[Finding] = field(default_factory=list)

    @property
    def fallback(self) -> Finding | None:
        """The finding that says why the whole file stays TF1 graph code, when it does."""
        return fallback(self.findings)


def fallback(findings: list[Finding]) -> Finding | None:
    """The finding of ``findings`` that says why the file stays TF1 graph code, if any."""
    return next((f for f in findings if is_fallback(f)), None)


def is_fallback(finding: Finding) -> bool:
    return finding.message.endswith(KEEPS_GRAPH)


class ParseError(Exception):
    """The source does not parse; the message carries line and column."""


class Unsupported(Exception):
    """A construct the program model does not cover; the scope falls back to compat.v1."""

    def __init__(self, rule: str, line: int, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.line = line
        self.message = message
