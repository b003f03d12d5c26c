"""One file through the rewriter, safely: read, rewrite, check, and write or diff.

Everything a worker process does for one path lives here, so the command line can
run it in-process or in a pool and get the same :class:`FileResult` back.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from migrate import name_safety, notebooks
from migrate.api import Finding, ParseError, RewriteConfig, RewriteResult, rewrite_source
from migrate.cache import Cache, Entry
from migrate.files import FileProblem, read_bytes, write_atomic

REWRITTEN = "rewritten"
WOULD_REWRITE = "would rewrite"
UNCHANGED = "unchanged"
SKIPPED = "skipped"
FAILED = "failed"


@dataclass(frozen=True)
class Job:
    """What to do with each file; picklable so it can cross into worker processes."""

    write: bool = True
    diff: bool = False
    config: RewriteConfig = field(default_factory=RewriteConfig)
    cache_dir: Path | None = None
    cache_salt: str = ""


@dataclass
class FileResult:
    path: str
    status: str
    level: str = "untouched"
    findings: list[Finding] = field(default_factory=list)
    diff: str | None = None
    error: str | None = None
    cached: bool = False
    #: The rewrite, kept when it was not written (``rewrite --verify`` writes it after verifying).
    code: bytes | None = field(default=None, repr=False)

    @property
    def manual(self) -> bool:
        return any(f.kind == "manual" for f in self.findings)


class UnsafeRewrite(Exception):
    """The rewriter's output failed a safety check; the file is left as it was."""


def rewrite_bytes(source: bytes, filename: str, config: RewriteConfig) -> RewriteResult:
    """Rewrite a .py or .ipynb file's bytes and prove the result stable.

    A second rewrite of the output must change nothing; otherwise the rewrite is
    refused rather than written, since an unstable rewrite is a wrong one. Only its code
    counts, so it skips line numbers; an output with no TF1 usage left costs it one `ast` scan.
    """
    rewrite = notebooks.rewrite_notebook if filename.endswith(".ipynb") else rewrite_source
    result = rewrite(source, filename=filename, config=config)
    if result.changed:
        again = rewrite(result.code, filename=filename, config=config, positions=False)
        if again.changed:
            raise UnsafeRewrite("the rewrite is not stable (a second run changes it again)")
        refused = name_safety.refusal(source, result.code, notebook=filename.endswith(".ipynb"))
        if refused is not None:
            raise UnsafeRewrite(refused)
    return result


def unified_diff(path: str, before: bytes, after: bytes) -> str:
    """A ``git apply``-able diff with ``a/`` and ``b/`` prefixes; line endings kept as they are."""
    old = before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    new = after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    name = Path(path).as_posix().lstrip("/")
    lines = []
    for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    return "".join(lines)


def _rewrite_cached(source: bytes, name: str, job: Job) -> tuple[Entry, bool]:
    """The rewrite of ``source``, from the cache when it has it; the flag says which."""
    cache = Cache(job.cache_dir, job.cache_salt) if job.cache_dir else None
    if cache is not None:
        hit = cache.get(source)
        if hit is not None:
            return hit, True
    result = rewrite_bytes(source, name, job.config)
    code = result.code if isinstance(result.code, bytes) else result.code.encode("utf-8")
    entry = Entry(result.level, result.findings, code if result.changed else None)
    if cache is not None:
        cache.put(source, entry)
    return entry, False


def process_file(path: Path, job: Job) -> FileResult:
    """Rewrite one file as ``job`` says; never raises, never leaves a half-written file."""
    name = str(path)
    try:
        source = read_bytes(path)
        entry, cached = _rewrite_cached(source, name, job)
    except FileProblem as problem:
        return FileResult(name, FAILED, error=str(problem))
    except ParseError as error:
        return FileResult(name, FAILED, error=f"cannot parse: {error}")
    except notebooks.NotebookError as error:
        return FileResult(name, FAILED, error=f"invalid notebook: {error}")
    except UnsafeRewrite as error:
        return FileResult(name, FAILED, error=str(error))
    except RecursionError:
        return FileResult(name, FAILED, error="too deeply nested to rewrite safely")
    if entry.code is None:
        status = UNCHANGED if b"tensorflow" in source else SKIPPED
        return FileResult(name, status, entry.level, entry.findings, cached=cached)
    diff = unified_diff(name, source, entry.code) if job.diff else None
    if not job.write:
        return FileResult(name, WOULD_REWRITE, entry.level, entry.findings, diff, cached=cached,
                          code=entry.code)
    try:
        write_atomic(path, entry.code, expected=source)
    except FileProblem as problem:
        return FileResult(name, FAILED, entry.level, entry.findings, diff, error=str(problem))
    return FileResult(name, REWRITTEN, entry.level, entry.findings, diff, cached=cached)
