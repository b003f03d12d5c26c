"""The ``tfmigrate`` command line: rewrite, check, verify, run, rules.

With ``entry.py`` (which starts ``tfmigrate run`` without it), this is where the rewriter
(``migrate``) and the engine (``runtime``) meet; the engine is imported only by the
commands that run programs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path

import click

from migrate import __version__

EXIT_CODES = """\b
Exit codes:
  0    nothing to do (or: equivalent)
  1    files rewritten / would be rewritten (or: different)
  2    usage or configuration error
  3    TF1 code left that needs manual work (--fail-on-manual; or: unverified)
  123  internal error, or a file that could not be read or parsed
  130  interrupted by Ctrl-C (143: by SIGTERM); no file is left half-written
"""

#: Usage errors exit 2 through click itself.
EXIT_OK, EXIT_CHANGED, EXIT_MANUAL, EXIT_ERROR = 0, 1, 3, 123
#: Below this many files a worker pool costs more than it saves.
PARALLEL_THRESHOLD = 8
#: Workers per core at most: beyond it they only wait for each other (and for memory).
WORKERS_PER_CORE = 4


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES)
@click.version_option(__version__, prog_name="tfmigrate")
def main() -> None:
    """Rewrite TensorFlow 1 graph code into idiomatic TensorFlow 2, and verify it computes the same."""


def _settings(paths: Sequence[str], stdin_filename: str | None):
    from migrate.config import ConfigError, find_pyproject, load_settings

    anchor = Path(os.path.abspath(stdin_filename or (paths[0] if paths else ".")))
    try:
        return load_settings(find_pyproject(anchor if os.path.lexists(anchor) else Path.cwd()))
    except ConfigError as error:
        raise click.UsageError(str(error)) from None


def _rule_config(settings, select: tuple[str, ...], ignore: tuple[str, ...]):
    from migrate.api import RewriteConfig, all_rules

    chosen = select or settings.select
    known = {rule.id for rule in all_rules()}
    unknown = sorted({*chosen, *ignore, *settings.ignore} - known)
    if unknown:
        raise click.UsageError(f"unknown rule id(s): {', '.join(unknown)} (see `tfmigrate rules`)")
    return RewriteConfig(
        select=frozenset(chosen) if chosen else None, ignore=frozenset(ignore) | frozenset(settings.ignore)
    )


def _files(paths: Sequence[str], settings, exclude, extend_exclude, force_exclude, *,
           remove_leftovers: bool = False) -> tuple[list[Path], list]:
    """The source files under ``paths``, and a result for each path passed over: a symlink
    leading out of the tree, and a temporary file a killed run left behind (removed when
    ``remove_leftovers``; nobody can be writing it any more)."""
    from migrate.files import DEFAULT_EXCLUDES, Excluder, discover
    from migrate.process import REMOVED, SKIPPED, FileResult

    patterns = tuple(exclude or settings.exclude or DEFAULT_EXCLUDES)
    patterns += tuple(extend_exclude) + tuple(settings.extend_exclude)
    excluder = Excluder(patterns, respect_gitignore=settings.respect_gitignore)
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise click.UsageError(f"no such file or directory: {', '.join(missing)}")
    passed: list[FileResult] = []

    def leftover(path: Path, pid: int) -> None:
        left = f"a temporary file left by an interrupted run (pid {pid})"
        if not remove_leftovers:
            passed.append(FileResult(str(path), SKIPPED, note=f"{left}; a rewrite removes it"))
            return
        try:
            path.unlink()
        except OSError as error:
            passed.append(FileResult(str(path), SKIPPED, note=f"{left}; cannot remove it: {error.strerror}"))
        else:
            passed.append(FileResult(str(path), REMOVED, note=f"removed {left}"))

    files = list(discover([Path(p) for p in paths], excluder, force_exclude=force_exclude,
                          skipped=lambda path, why: passed.append(FileResult(str(path), SKIPPED, note=why)),
                          leftover=leftover))
    return files, passed


def _files_noting(paths: Sequence[str], settings, exclude, extend_exclude, force_exclude) -> list[Path]:
    """The source files under ``paths``; each path passed over is told on stderr at once."""
    from migrate.output import emit, note_line

    files, passed = _files(paths, settings, exclude, extend_exclude, force_exclude)
    for result in passed:
        emit(note_line(result))
    return files


def _in_range(name: str):
    """A click callback refusing an option value its pyproject.toml key would not take."""

    def check(ctx: click.Context, param: click.Parameter, value):
        from migrate.config import out_of_range

        wrong = None if value is None else out_of_range(name, value)
        if wrong is not None:
            raise click.BadParameter(f"{value!r} is invalid: it {wrong}", ctx, param)
        return value

    return check


def _workers(requested: int | None, files: int) -> int:
    """Worker processes for ``files`` files: as asked (default: the cores), but never more
    than one per file or :data:`WORKERS_PER_CORE` per core."""
    cores = os.cpu_count() or 1
    return max(1, min(requested or cores, files, WORKERS_PER_CORE * cores))


def _show_progress(count: int, quiet: bool) -> bool:
    return not quiet and count > 4 and sys.stderr.isatty() and not os.environ.get("CI")


def _run_jobs(files: list[Path], job, jobs: int, progress: bool, programs: bool = True):
    """Process every file, in a worker pool when it pays; results come back in input order.

    SIGINT (Ctrl-C) or SIGTERM ends the run between two writes, with every worker: each file
    is then as it was or fully rewritten, and the exit status says which signal it was.
    """
    with _ending_on_signals() as stops:
        return _results(files, job, jobs, progress, stops, programs)


@contextmanager
def _ending_on_signals():
    """SIGINT and SIGTERM end the command between two writes, with a message and 128 + signal."""
    from migrate.workers import Interrupted, stop_on_signals

    try:
        with stop_on_signals() as stops:
            yield stops
    except Interrupted as stop:
        click.echo(f"tfmigrate: interrupted ({stop}); no file was left half-written", err=True)
        sys.exit(stop.exit_code)


def _results(files: list[Path], job, jobs: int, progress: bool, stops, programs: bool = True) -> list:
    """Each file's result, in the order of ``files``: those of programs of several files
    (a model module and its importers) first rewritten together, the rest one by one."""
    from migrate.process import process_programs

    made, refused = process_programs(files, job) if programs and files else ([], {})
    together = {Path(r.path): r for r in made}
    alone = [f for f in files if f not in together]
    done = iter(_alone(alone, job, jobs, progress, stops))
    results = [together[f] if f in together else next(done) for f in files]
    for path, result in zip(files, results):
        if path in refused:
            result.findings = sorted([*result.findings, refused[path]], key=lambda f: f.line)
    return results


def _alone(files: list[Path], job, jobs: int, progress: bool, stops) -> list:
    from migrate.process import process_file
    from migrate.workers import worker_pool

    def run(results: Iterable) -> list:
        if not progress:
            return list(results)
        from rich.progress import Progress

        out = []
        with Progress(transient=True, console=_stderr_console()) as bar:
            task = bar.add_task("rewriting", total=len(files))
            for result in results:
                out.append(result)
                bar.advance(task)
        return out

    if jobs > 1 and len(files) >= PARALLEL_THRESHOLD:
        # Biggest files first, one at a time, so no worker is left with a large one at the
        # end (a chunk of the biggest would hand one worker all of them); a file costs far
        # more than the hand-over.
        order = sorted(range(len(files)), key=lambda i: -_size(files[i]))
        with worker_pool(jobs) as pool_map:
            done = run(pool_map([files[i] for i in order], job))
        results = [None] * len(files)
        for i, result in zip(order, done):
            results[i] = result
        return results

    def one_by_one() -> Iterable:
        for path in files:
            yield process_file(path, job)
            stops.act_on_pending()

    return run(one_by_one())


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # reported by the worker that reads it


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def _cache_salt(config) -> str:
    from migrate.cache import tool_fingerprint

    return f"{tool_fingerprint()}|{sorted(config.select or [])}|{sorted(config.ignore)}"


def _color(color: bool | None) -> bool:
    return sys.stdout.isatty() if color is None else color


common_rewrite_options = [
    click.option("--select", multiple=True, help="Only these rule ids (repeatable)."),
    click.option("--ignore", multiple=True, help="Skip these rule ids (repeatable)."),
    click.option("--exclude", multiple=True, help="Replace the default excludes (glob, repeatable)."),
    click.option("--extend-exclude", multiple=True, help="Add to the excludes (glob, repeatable)."),
    click.option(
        "--force-exclude", is_flag=True, help="Apply excludes to files named explicitly too (pre-commit)."
    ),
    click.option("--stdin-filename", help="The name to use for `-` (stdin) in messages and config lookup."),
    click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text"),
    click.option("--report", type=click.Path(dir_okay=False), help="Also write a JSON report to this file."),
    click.option("-q", "--quiet", is_flag=True, help="Only errors and the exit code."),
    click.option("-v", "--verbose", is_flag=True, help="Print the traceback of an internal error."),
]


def _with_options(options):
    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


@main.command(epilog=EXIT_CODES)
@click.argument("paths", nargs=-1)
@click.option("--check", is_flag=True, help="Write nothing; list the files that would change.")
@click.option("--diff", is_flag=True, help="Print a unified diff instead of writing (git apply-able).")
@click.option("--verify", "verify_", is_flag=True, help="Write only files whose rewrite verifies equivalent.")
@click.option("-j", "--jobs", type=int, callback=_in_range("jobs"),
              help="Worker processes (default: cores; at most one per file and 4 per core).")
@click.option("--no-cache", is_flag=True, help="Ignore the cache of unchanged files.")
@click.option("--fail-on-manual", is_flag=True, help="Exit 3 when TF1 code is left for manual work.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when files change (errors still exit 123).")
@click.option("--color/--no-color", default=None, help="Colour the diff (default: only on a terminal).")
@_with_options(common_rewrite_options)
def rewrite(
    paths, check, diff, verify_, jobs, no_cache, fail_on_manual, exit_zero, color, select, ignore, exclude,
    extend_exclude, force_exclude, stdin_filename, fmt, report, quiet, verbose,
) -> None:
    """Rewrite TF1 code in PATHS (files, folders, or - for stdin) into TF2, in place."""
    from migrate.process import Job

    if not paths:
        raise click.UsageError("give at least one path (or - for stdin)")
    settings = _settings(paths, stdin_filename)
    config = _rule_config(settings, select, ignore)
    if paths == ("-",):
        sys.exit(_rewrite_stdin(config, stdin_filename or "<stdin>", check, diff, color, fmt, verbose))
    if "-" in paths:
        raise click.UsageError("`-` (stdin) cannot be combined with other paths")
    write = not (check or diff or verify_)
    files, passed = _files(paths, settings, exclude, extend_exclude, force_exclude, remove_leftovers=write)
    cache_dir = None if no_cache else Path(settings.cache_dir).resolve()
    job = Job(write=write, diff=diff, config=config, cache_dir=cache_dir,
              cache_salt=_cache_salt(config))
    # `--verify` runs one file at a time on the engine: a program of several files is not verified
    results = _run_jobs(files, job, _workers(jobs or settings.jobs, len(files)),
                        _show_progress(len(files), quiet), programs=not verify_)
    if verify_:
        results = _verify_all(results, settings, write=not (check or diff))
    results += passed
    _report(results, fmt=fmt, write=write, check=check, diff=diff, color=color, quiet=quiet,
            report=report, verbose=verbose)
    status = _exit_status(results, fail_on_manual=fail_on_manual)
    sys.exit(EXIT_OK if exit_zero and status == EXIT_CHANGED else status)


def _exit_status(results, *, fail_on_manual: bool) -> int:
    from migrate.process import FAILED, REWRITTEN, WOULD_REWRITE

    if any(r.status == FAILED for r in results):
        return EXIT_ERROR
    if fail_on_manual and any(r.manual for r in results):
        return EXIT_MANUAL
    if any(r.status in (REWRITTEN, WOULD_REWRITE) for r in results):
        return EXIT_CHANGED
    return EXIT_OK


def _report(results, *, fmt, write, check, diff, color, quiet, report, verbose) -> None:
    from migrate import output
    from migrate.process import WOULD_REWRITE

    if report:
        Path(report).write_text(output.as_json(results, write=write) + "\n", encoding="utf-8")
    if fmt == "json":
        output.emit(output.as_json(results, write=write), sys.stdout)
        return
    if diff:
        for r in results:
            if r.diff:
                sys.stdout.write(output.colour_diff(r.diff) if _color(color) else r.diff)
    if check and not quiet:
        for r in results:
            if r.status == WOULD_REWRITE:
                output.emit(f"would rewrite {r.path}")
    lines = output.finding_lines(results, fmt, verbose)
    for line in lines:
        if quiet and fmt == "text" and "error:" not in line:
            continue
        output.emit(line, sys.stdout if fmt == "github" else sys.stderr)
    if not quiet and fmt == "text":
        output.emit(output.summary(results, write=write))


def _rewrite_stdin(config, filename, check, diff, color, fmt, verbose) -> int:
    from migrate import output
    from migrate.process import FileResult, failure, rewrite_bytes, unified_diff

    source = sys.stdin.buffer.read()
    try:
        result = rewrite_bytes(source, filename, config)
    except Exception as error:  # noqa: BLE001 - the input goes back out as it came, whatever failed
        for line in output.finding_lines([failure(filename, error)], fmt, verbose):
            output.emit(line)
        if not check and not diff:
            sys.stdout.buffer.write(source)
        return EXIT_ERROR
    code = result.code if isinstance(result.code, bytes) else result.code.encode("utf-8")
    if diff:
        text = unified_diff(filename, source, code)
        sys.stdout.write(output.colour_diff(text) if _color(color) else text)
    elif not check:
        sys.stdout.buffer.write(code)
    status = "would rewrite" if result.changed else "unchanged"
    file_result = FileResult(filename, status, result.level, result.findings)
    for line in output.finding_lines([file_result], fmt):
        output.emit(line)
    return EXIT_CHANGED if result.changed else EXIT_OK


def _verify_all(results: list, settings, *, write: bool) -> list:
    """``rewrite --verify``'s second pass; a signal ends it as it ends the first."""
    from migrate.process import WOULD_REWRITE

    out = []
    with _ending_on_signals() as stops:
        for result in results:
            out.append(_verify_and_write(result, settings, write=write)
                       if result.status == WOULD_REWRITE else result)
            stops.act_on_pending()
    return out


def _verify_and_write(result, settings, *, write: bool):
    """For ``rewrite --verify``: write a rewrite only once the engine shows it equivalent."""
    from migrate.files import FileProblem, read_bytes, write_atomic
    from migrate.process import FAILED, REWRITTEN, internal_error

    path = Path(result.path)
    try:
        source = read_bytes(path)
        verdict = _verify_sources(path, source, result.code, settings, reprinted=_reprinted(result.findings))
        if verdict.status != "equivalent":
            result.status, result.error = FAILED, f"not written: verify says {verdict.status}: {verdict.reason}"
            return result
        if not write:
            return result
        write_atomic(path, result.code, expected=source)
    except FileProblem as problem:
        result.status, result.error = FAILED, str(problem)
        return result
    except Exception as error:  # noqa: BLE001 - one file's bug must not end the run
        failed = internal_error(result.path, error)
        result.status, result.error, result.traceback = FAILED, failed.error, failed.traceback
        return result
    result.status = REWRITTEN
    return result


def _verify_options(settings, rtol=None, atol=None, max_steps=None, timeout=None):
    from runtime.verdict import Options

    return Options(
        rtol=settings.rtol if rtol is None else rtol,
        atol=settings.atol if atol is None else atol,
        max_steps=settings.max_steps if max_steps is None else max_steps,
        timeout=settings.timeout if timeout is None else timeout,
    )


def _helper_lines_of(path: Path) -> frozenset[int]:
    """The lines of the rewriter's own helpers in a rewrite on disk (``migrate.helper_code``)."""
    from migrate.helper_code import helper_lines

    try:
        return helper_lines(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return frozenset()


def _reprinted(findings) -> frozenset[int]:
    """Lines whose printed text the rewrite changes by design (TF117's informational findings)."""
    from migrate.rules.eager_reads import RULE

    return frozenset(f.line for f in findings if f.rule == RULE.id and f.kind == "info")


def _verify_sources(path: Path, old: bytes, new: bytes, settings, reprinted: frozenset[int] = frozenset(), **overrides):
    """Verify an in-memory rewrite; a notebook is verified as the script its code cells make
    (its findings' lines are not the script's: nothing is taken as reprinted there)."""
    from dataclasses import replace

    from migrate.helper_code import helper_lines
    from runtime.verdict import verify_sources

    options = _verify_options(settings, **overrides)
    if path.suffix == ".ipynb":
        from migrate.notebooks import to_script

        old_text, new_text = to_script(old)[0], to_script(new)[0]
        filename = f"{path.stem}.py"
    else:
        old_text, new_text = old.decode("utf-8", "replace"), new.decode("utf-8", "replace")
        filename = path.name
        options = replace(options, reprinted=reprinted)
    options = replace(options, vouched=helper_lines(new_text))
    return verify_sources(old_text, new_text, path.parent.resolve(), options, filename=filename)


@main.command(epilog=EXIT_CODES)
@click.argument("paths", nargs=-1)
@click.option("--exclude", multiple=True, help="Replace the default excludes (glob, repeatable).")
@click.option("--extend-exclude", multiple=True, help="Add to the excludes (glob, repeatable).")
@click.option("--force-exclude", is_flag=True, help="Apply excludes to files named explicitly too.")
@click.option("--fail-on-manual/--no-fail-on-manual", default=True, help="Exit 3 when TF1 usages are left.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text")
@click.option("-q", "--quiet", is_flag=True)
@click.option("-v", "--verbose", is_flag=True, help="Print the traceback of an internal error.")
def check(paths, exclude, extend_exclude, force_exclude, fail_on_manual, fmt, quiet, verbose) -> None:
    """List the TF1 usages left in PATHS; writes nothing."""
    from migrate import output
    from migrate.process import FAILED

    if not paths:
        raise click.UsageError("give at least one path")
    settings = _settings(paths, None)
    results = [_check_file(path) for path in _files_noting(paths, settings, exclude, extend_exclude, force_exclude)]
    if fmt == "json":
        output.emit(output.as_json(results, write=False), sys.stdout)
    else:
        for line in output.finding_lines(results, fmt, verbose):
            output.emit(line, sys.stdout)
        if not quiet and fmt == "text":
            left = sum(len(r.findings) for r in results)
            with_tf1 = sum(1 for r in results if r.findings)
            output.emit(f"{left} TF1 usages left in {with_tf1} of {len(results)} files")
    if any(r.status == FAILED for r in results):
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_MANUAL if fail_on_manual and any(r.findings for r in results) else EXIT_OK)


def _check_file(path: Path):
    """One file's TF1 usages; a file that cannot be read or parsed, or a bug, is its failure."""
    from migrate.api import ParseError, find_tf1_usages
    from migrate.files import FileProblem, read_bytes
    from migrate.notebooks import NotebookError, to_script
    from migrate.process import FAILED, UNCHANGED, FileResult, internal_error

    try:
        source = read_bytes(path)
        if path.suffix == ".ipynb":
            source = to_script(source)[0].encode("utf-8")
        findings = find_tf1_usages(source, filename=str(path))
    except (FileProblem, ParseError, NotebookError) as error:
        return FileResult(str(path), FAILED, error=str(error))
    except RecursionError:
        return FileResult(str(path), FAILED, error="too deeply nested to read safely")
    except Exception as error:  # noqa: BLE001 - one file's bug must not end the run
        return internal_error(str(path), error)
    return FileResult(str(path), UNCHANGED, findings=findings)


@main.command()
@click.option("--markdown", is_flag=True, help="As a Markdown table (the one in README).")
def rules(markdown: bool) -> None:
    """List every rule with its id."""
    from migrate.api import all_rules

    if markdown:
        click.echo("| id | kind | name | what it does |\n|---|---|---|---|")
    for rule in all_rules():
        if markdown:
            click.echo(f"| {rule.id} | {rule.kind} | {rule.name} | {rule.summary} |")
        else:
            click.echo(f"{rule.id}  {rule.kind:<6}  {rule.name}: {rule.summary}")


@main.command()
@click.argument("rule_id")
def rule(rule_id: str) -> None:
    """Explain one rule."""
    from migrate.api import all_rules

    for candidate in all_rules():
        if candidate.id.lower() == rule_id.lower():
            click.echo(f"{candidate.id} {candidate.name} ({candidate.kind})\n\n{candidate.summary}\n")
            click.echo(candidate.doc)
            return
    raise click.UsageError(f"unknown rule {rule_id!r} (see `tfmigrate rules`)")


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--face", type=click.Choice(["auto", "tf1", "tf2"]), default="auto",
              help="Which TensorFlow the program sees (auto: TF 1.x if it uses 1.x-only names).")
@click.option("--sandbox", is_flag=True,
              help="Run in a throwaway copy of the program's folder, with its own home and temp folder.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True),
              help="Stop the program after this many seconds (exit 124).")
@click.option("--memory", "memory_mb", type=click.IntRange(min=1),
              help="Cap the program's memory (address space) at this many MB.")
@click.argument("program", type=click.Path(exists=True, dir_okay=False))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def run(face: str, sandbox: bool, timeout: float | None, memory_mb: int | None, program: str,
        args: tuple[str, ...]) -> None:
    """Run PROGRAM on the bundled NumPy engine (no TensorFlow needed); ARGS go to the program.

    Without options the program runs in this process, which from here on is the engine's:
    ``import tensorflow`` resolves to the engine only now, never in the other commands.
    With any of them it runs in a child process that is ended, with all it started, when
    it exits, times out or is interrupted.
    """
    if sandbox or timeout is not None or memory_mb is not None:
        from runtime.launch import run_limited
        from runtime.sandbox import SandboxError

        try:
            status = run_limited(Path(program), list(args), face=face, sandbox=sandbox,
                                 timeout=timeout, memory_mb=memory_mb)
        except SandboxError as error:
            raise click.UsageError(str(error)) from None
        sys.exit(status)
    from runtime.run import main as run_program

    run_program(["--face", face, program, *args])


@main.command(epilog="""\b
Exit codes:
  0  equivalent    1  different    2  usage error    3  unverified    123  internal error
""")
@click.argument("paths", nargs=-1, required=True)
@click.option("--rtol", type=float, callback=_in_range("rtol"), help="Relative tolerance for numbers (default 1e-4).")
@click.option("--atol", type=float, callback=_in_range("atol"), help="Absolute tolerance for numbers (default 1e-6).")
@click.option("--max-steps", type=int, callback=_in_range("max_steps"),
              help="End both programs' training after N optimizer steps; the rest still runs.")
@click.option("--timeout", type=float, callback=_in_range("timeout"), help="Seconds each program may run (default 300).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("-v", "--verbose", is_flag=True, help="Print the traceback of an internal error.")
@click.option("--rewrite", "in_memory", is_flag=True,
              help="Rewrite each file in memory and compare it with its rewrite, even for two files.")
@click.option("--face-old", type=click.Choice(["auto", "tf1", "tf2"]), default="auto",
              help="The TensorFlow OLD sees (auto: TF 1.x if it uses 1.x-only names).")
@click.option("--face-new", type=click.Choice(["auto", "tf1", "tf2"]), default="tf2",
              help="The TensorFlow NEW sees (default tf2: TF 2.21, as NEW will run).")
def verify(paths, rtol, atol, max_steps, timeout, fmt, verbose, in_memory, face_old, face_new) -> None:
    """Show a rewrite computes what the original did.

    \b
    tfmigrate verify OLD.py NEW.py     compare exactly these two programs
    tfmigrate verify --rewrite PATHS   rewrite each TF1 file in memory, then compare
    tfmigrate verify PATH | DIR...     the same, for one file, folders or notebooks
    """
    from dataclasses import replace

    from runtime.verdict import verify_files

    settings = _settings(paths, None)
    overrides = {"rtol": rtol, "atol": atol, "max_steps": max_steps, "timeout": timeout}
    if not in_memory and _is_pair(paths):
        old, new = map(Path, paths)
        options = replace(_verify_options(settings, **overrides), vouched=_helper_lines_of(new))
        results = [_guarded_verdict(f"{old} -> {new}", None, verbose, lambda: (
            f"{old} -> {new}", None, verify_files(old, new, options, old_face=face_old, new_face=face_new)))]
    else:
        config = _rule_config(settings, (), ())
        files = _files_noting(paths, settings, (), (), False)
        results = []
        for done, path in enumerate(files, 1):
            results.append(_guarded_verdict(str(path), "failed", verbose,
                                            lambda path=path: _verify_file(path, settings, config, overrides)))
            if len(files) > 1 and fmt == "text":  # a long run shows each verdict as it is reached
                _, level, verdict = results[-1][0]
                click.echo(f"[{done}/{len(files)}] {path}: {f'{level}, ' if level else ''}{verdict.status}",
                           err=True)
    verdicts = [entry for entry, _ in results]
    _print_verdicts(verdicts, fmt)
    if any(internal for _, internal in results):
        sys.exit(EXIT_ERROR)
    statuses = {v.status for _, _, v in verdicts}
    worst = next((s for s in ("different", "unverified") if s in statuses), "equivalent")
    sys.exit({"equivalent": EXIT_OK, "different": EXIT_CHANGED, "unverified": EXIT_MANUAL}[worst])


def _guarded_verdict(name: str, failed_level: str | None, verbose: bool, compute):
    """(``compute()``'s (file, rewrite level, verdict), False); a bug of ours while verifying
    is that file's internal error, printed, and an unverified verdict, never the end of the run:
    ((file, ``failed_level``, unverified), True)."""
    from migrate import output
    from migrate.process import internal_error
    from runtime.verdict import Verdict

    try:
        return compute(), False
    except Exception as error:  # noqa: BLE001 - one file's bug must not end the run
        failed = internal_error(name, error)
        output.emit(output.internal_error_line(failed.path, str(failed.error), failed.traceback, verbose))
        return (failed.path, failed_level, Verdict("unverified", f"internal error: {failed.error}")), True


def _verify_file(path: Path, settings, config, overrides):
    """(file, rewrite level, verdict) for one file rewritten in memory; a file that cannot be
    read or rewritten (a FIFO, binary, an invalid notebook, too deep) is unverified, with why."""
    from migrate.files import read_bytes
    from migrate.process import PROBLEM_TYPES, problem_message, rewrite_bytes
    from runtime.verdict import Verdict

    try:
        source = read_bytes(path)
        result = rewrite_bytes(source, str(path), config)
    except PROBLEM_TYPES as error:
        return str(path), "failed", Verdict("unverified", f"not rewritten: {problem_message(error)}")
    code = result.code if isinstance(result.code, bytes) else result.code.encode("utf-8")
    return str(path), result.level, _verify_sources(
        path, source, code, settings, reprinted=_reprinted(result.findings), **overrides,
    )


def _is_pair(paths: Sequence[str]) -> bool:
    """Two Python files: an original and its migration, compared exactly as they are, whatever
    API either uses (a partial migration that keeps ``tf.compat.v1`` is still compared)."""
    return len(paths) == 2 and all(p.endswith(".py") and Path(p).is_file() for p in paths)


def _print_verdicts(verdicts, fmt: str) -> None:
    """One line for one file; for several, a table with each file's rewrite level and verdict,
    and the totals of both (what `benchmarks/corpus.py` reports for a whole corpus)."""
    import json
    from collections import Counter

    if fmt == "json":
        click.echo(json.dumps([{"file": name, **({"level": level} if level else {}), **v.to_dict()}
                               for name, level, v in verdicts], indent=2))
        return
    if len(verdicts) == 1:
        name, level, verdict = verdicts[0]
        click.echo(f"{name}: {f'{level}, ' if level else ''}{verdict.status}: {verdict.reason}")
        return
    from rich.console import Console
    from rich.table import Table

    rewritten = any(level for _, level, _ in verdicts)
    table = Table("file", *(["level"] if rewritten else []), "verdict", "why")
    for name, level, verdict in verdicts:
        table.add_row(name, *([level or "-"] if rewritten else []), verdict.status, verdict.reason)
    console = Console()
    console.print(table)
    totals = [Counter(v.status for _, _, v in verdicts)]
    if rewritten:
        totals.insert(0, Counter(level for _, level, _ in verdicts if level))
    console.print(f"{len(verdicts)} files: " + "; ".join(
        ", ".join(f"{n} {what}" for what, n in counts.most_common()) for counts in totals
    ), highlight=False)
