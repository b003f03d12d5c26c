"""One file through the rewriter, safely: read, rewrite, check, and write or diff.

Everything a worker process does for one path lives here, so the command line can
run it in-process or in a pool and get the same :class:`FileResult` back.
"""

from __future__ import annotations

import difflib
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from migrate import name_safety, notebooks
from migrate.api import Finding, ParseError, RewriteConfig, RewriteResult, rewrite_source
from migrate.cache import Cache, Entry, file_kind
from migrate.files import FileProblem, read_bytes, write_atomic

REWRITTEN = "rewritten"
WOULD_REWRITE = "would rewrite"
UNCHANGED = "unchanged"
SKIPPED = "skipped"
FAILED = "failed"
#: A temporary file a killed run left behind, removed.
REMOVED = "removed"


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
    #: Why a path was passed over (a symlink out of the tree, a left-over temporary file).
    note: str | None = None
    #: Set for an internal error (a bug, not a problem with the file): where it was raised.
    traceback: str | None = field(default=None, repr=False)

    @property
    def manual(self) -> bool:
        return any(f.kind == "manual" for f in self.findings)


class UnsafeRewrite(Exception):
    """The rewriter's output failed a safety check; the file is left as it was."""


#: Why a file is left as it was, by the exception that says so; any other exception is a bug.
PROBLEMS: dict[type[Exception], str] = {
    FileProblem: "{}",
    ParseError: "cannot parse: {}",
    notebooks.NotebookError: "invalid notebook: {}",
    UnsafeRewrite: "{}",
    RecursionError: "too deeply nested to rewrite safely",
}
PROBLEM_TYPES = tuple(PROBLEMS)


def problem_message(error: Exception) -> str:
    """The user-facing reason for one of the :data:`PROBLEMS`."""
    template = next(text for kind, text in PROBLEMS.items() if isinstance(error, kind))
    return template.format(error)


def failure(name: str, error: Exception) -> FileResult:
    """A file's result for the exception that stopped it: one of the :data:`PROBLEMS`, or a bug."""
    if isinstance(error, PROBLEM_TYPES):
        return FileResult(name, FAILED, error=problem_message(error))
    return internal_error(name, error)


def internal_error(name: str, error: Exception) -> FileResult:
    """A file's result when handling it raised what no check expects: reported, not fatal,
    with the traceback kept for ``-v`` (the result may cross from a worker as a string)."""
    return FileResult(name, FAILED, error=f"{type(error).__name__}: {error}",
                      traceback=traceback.format_exc())


def rewrite_bytes(source: bytes, filename: str, config: RewriteConfig) -> RewriteResult:
    """Rewrite a .py or .ipynb file's bytes and prove the result stable and name-safe.

    A second rewrite of the output must change nothing, and the output must read no name
    unbound that the input had bound (``name_safety``); otherwise the rewrite is refused
    rather than written. The second rewrite's code is all that counts, so it skips line
    numbers; an output with no TF1 usage left costs it one `ast` scan.
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
    """A ``git apply``-able diff with ``a/`` and ``b/`` prefixes; line endings kept as they are.

    Lines are cut after LF only, as git cuts them: a CR (of a CRLF or CR-only file) or a
    U+2028 is part of its line, not the end of one.
    """
    old = _git_lines(before.decode("utf-8", "surrogateescape"))
    new = _git_lines(after.decode("utf-8", "surrogateescape"))
    name = Path(path).as_posix().lstrip("/")
    lines = []
    for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    return "".join(lines)


def _git_lines(text: str) -> list[str]:
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def _rewrite_cached(source: bytes, name: str, job: Job) -> tuple[Entry, bool]:
    """The rewrite of ``source``, from the cache when it has it; the flag says which."""
    cache = Cache(job.cache_dir, job.cache_salt) if job.cache_dir else None
    kind = file_kind(name)
    if cache is not None:
        hit = cache.get(source, kind)
        if hit is not None:
            return hit, True
    result = rewrite_bytes(source, name, job.config)
    code = result.code if isinstance(result.code, bytes) else result.code.encode("utf-8")
    entry = Entry(result.level, result.findings, code if result.changed else None)
    if cache is not None:
        cache.put(source, kind, entry)
    return entry, False


def process_file(path: Path, job: Job) -> FileResult:
    """Rewrite one file as ``job`` says; never raises, never leaves a half-written file.

    An unexpected exception is that file's internal error: the run goes on with the others.
    """
    try:
        return _process_file(path, job)
    except Exception as error:  # noqa: BLE001 - one file's bug must not end the run
        return internal_error(str(path), error)


def _process_file(path: Path, job: Job) -> FileResult:
    name = str(path)
    try:
        source = read_bytes(path)
        entry, cached = _rewrite_cached(source, name, job)
    except PROBLEM_TYPES as error:
        return FileResult(name, FAILED, error=problem_message(error))
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


def process_programs(files: list[Path], job: Job) -> tuple[list[FileResult], dict[Path, Finding]]:
    """The files rewritten as programs of several files (``migrate.programs``: a model module
    with the scripts importing it), and for importers left alone, why; every other file is for
    :func:`process_file`.

    The files of programs are written together: when one cannot be written, those already
    written go back to what they were, so no importer is left calling what its module lost.
    """
    from migrate import programs

    sources: dict[Path, bytes] = {}
    for path in files:
        try:
            data = read_bytes(path)
        except FileProblem:
            continue  # reported when the file is processed alone
        sources[path] = data  # a file not naming tensorflow is only searched for imports
    try:
        outcomes, refused = programs.rewrite_tree(sources, job.config)
    except Exception:  # noqa: BLE001 - a bug here must not end the run: the files go alone
        return [], {}
    results = []
    for path, outcome in outcomes.items():
        code = outcome.code.encode("utf-8")
        diff = unified_diff(str(path), sources[path], code) if job.diff else None
        results.append(FileResult(str(path), WOULD_REWRITE, outcome.level, outcome.findings, diff, code=code))
    if job.write:
        _write_together(results, sources)
    return results, refused


def _write_together(results: list[FileResult], sources: dict[Path, bytes]) -> None:
    """Write every result's code, or none: after a failed write, the files already written get
    their bytes back and every file of the batch is reported not written."""
    written: list[FileResult] = []
    for result in results:
        path, code = Path(result.path), result.code
        assert code is not None
        try:
            write_atomic(path, code, expected=sources[path])
        except FileProblem as problem:
            for other in results:
                if other is not result:
                    other.status, other.error = FAILED, f"not written: {path} could not be written ({problem})"
            result.status, result.error = FAILED, str(problem)
            for done in written:
                try:
                    write_atomic(Path(done.path), sources[Path(done.path)], expected=done.code)  # type: ignore[arg-type]
                except FileProblem as stuck:
                    done.error = f"written, then could not be put back: {stuck}"
            return
        written.append(result)
    for result in results:
        result.status, result.code = REWRITTEN, None
