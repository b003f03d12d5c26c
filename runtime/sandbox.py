"""Run one program in a subprocess, in its own temporary copy of its directory.

Why a copy: programs write checkpoints, logs and summaries next to themselves;
the original and the rewrite must neither clash nor touch the user's tree. The
copy is by value, with its own home and temporary folder, and every process the
program starts is ended with it (``runtime.confine``, which also says what this
does not protect).
Why a subprocess: ``import tensorflow`` must resolve to the engine only there,
and a timeout and a memory cap must be able to end it.

Both runs of a ``verify`` get the same argv, stdin and environment, plus:

- ``PYTHONHASHSEED=0`` and ``TFMIGRATE_SEED`` (default 0): numpy's global RNG and
  ``random`` are seeded with it before the program starts (``seed_from_env``,
  called by the bootstrap below; a runner may call it again after its own
  imports), so code that draws data from them sees the same numbers;
- ``OMP/OPENBLAS/MKL_NUM_THREADS=1``: a multi-threaded BLAS may sum in a
  different order from run to run;
- ``TFMIGRATE_TRACE`` (the trace file), ``TFMIGRATE_PROGRAM`` (the program's path
  in the copy, so the trace can name the user's source lines) and
  ``TFMIGRATE_MAX_STEPS`` when a step budget is given;
- ``MPLBACKEND=Agg`` so ``plt.show()`` does not wait for a window;
- ``HOME``, ``TMPDIR`` (``TMP``, ``TEMP``) and XDG's folders inside the sandbox.

The child side is a small bootstrap, ``python -m runtime.sandbox``: it seeds,
then runs either the engine's runner (``--module runtime.run --face F PROG ARGS``,
see ``engine_command``) or the program as plain Python (``PROG ARGS``, see
``python_command``; tests use it to check the harness without the engine). In
both, the program's loops are cut at the step budget (``runtime.step_budget``), and a program
the budget has to stop (``trace.StopProgram``) exits with 0.
"""

from __future__ import annotations

import bisect
import json
import os
import random
import re
import runpy
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from runtime import step_states, trace
from runtime.confine import (
    RUN_MARK_ENV,
    TooLarge,
    copy_by_value,
    end_processes,
    memory_limit,
    private_environment,
)
from runtime.step_budget import run_path

SEED_ENV = "TFMIGRATE_SEED"
PROJECT_ROOT = Path(__file__).resolve().parent.parent

# Directories never needed to run a program, and often large.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "node_modules",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".hypothesis",
        ".tfmigrate_cache",
        ".ipynb_checkpoints",
        ".idea",
        ".vscode",
    }
)
# Refuse to copy more than this: a program next to a whole home directory is not a project.
COPY_LIMIT_BYTES = 512 * 1024 * 1024

# A runner turns (program path in the copy, face) into the command that runs it.
Runner = Callable[[Path, str], list[str]]


def engine_command(program: Path, face: str, module: str = "runtime.run") -> list[str]:
    """Run on the engine (``python -m runtime.run --face F PROG``), behind the bootstrap."""
    return [sys.executable, "-m", "runtime.sandbox", "--module", module,
            "--face", face, str(program)]  # fmt: skip


def python_command(program: Path, face: str) -> list[str]:
    """Run as plain Python (no engine); the face is irrelevant here."""
    return [sys.executable, "-m", "runtime.sandbox", str(program)]


class SandboxError(Exception):
    """The program could not be started (e.g. its directory is too large to copy)."""


@dataclass
class RunResult:
    """What one run let the world see."""

    stdout: str
    stderr: str
    exit_code: int
    exception: str | None  # type name from the traceback's last line, e.g. "ValueError"
    trace: dict[str, Any] | None
    timed_out: bool
    exception_message: str | None = None
    exception_line: int | None = None  # innermost line of the program in the traceback

    @property
    def out_of_memory(self) -> bool:
        """The memory cap ended the program (a MemoryError, numpy's too, or a C allocator abort)."""
        return (self.exception or "").endswith("MemoryError") or (
            self.exit_code != 0
            and any(s in self.stderr for s in ("std::bad_alloc", "Cannot allocate memory"))
        )

    @property
    def stopped_early(self) -> bool:
        return bool(self.trace and self.trace.get("stopped_early"))


_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::\s?(.*))?$")


def parse_exception(stderr: str) -> tuple[str | None, str | None]:
    """The uncaught exception's type name and message, from a Python traceback."""
    start = stderr.rfind("Traceback (most recent call last):")
    if start < 0:
        return None, None
    for line in reversed(stderr[start:].splitlines()):
        if not line.strip() or line.startswith((" ", "\t")):
            continue
        match = _EXCEPTION_LINE.match(line.rstrip())
        if match:
            return match.group(1).rsplit(".", 1)[-1], match.group(2)
    return None, None


def traceback_line(stderr: str, program: Path) -> int | None:
    """The last line of ``program`` named in the last traceback: where it raised."""
    start = stderr.rfind("Traceback (most recent call last):")
    target = os.path.realpath(program)
    lines = [
        int(line)
        for filename, line in re.findall(r'File "(.+?)", line (\d+)', stderr[max(start, 0) :])
        if os.path.realpath(filename) == target
    ]
    return lines[-1] if lines else None


def _ignore(directory: str, names: list[str]) -> set[str]:
    return {
        n
        for n in names
        if n in SKIPPED_DIRS or os.path.isfile(os.path.join(directory, n, "pyvenv.cfg"))
    }


def copy_workdir(workdir: Path, dest: Path) -> Path:
    """Copy ``workdir`` to ``dest`` by value, without VCS, caches and virtualenvs."""
    try:
        copy_by_value(workdir, dest, limit_bytes=COPY_LIMIT_BYTES, skip=_ignore)
    except TooLarge:
        raise SandboxError(
            f"{workdir} holds more than {COPY_LIMIT_BYTES >> 20} MB (links followed), too much "
            "to copy into a sandbox; move the program into a smaller directory"
        ) from None
    return dest


def engine_environment() -> dict[str, str]:
    """The caller's environment, with ``runtime`` importable from a source checkout.

    An installed package is found anyway, and its site-packages must not go ahead of
    the stdlib.
    """
    env = dict(os.environ)
    source_checkout = (PROJECT_ROOT / "pyproject.toml").is_file()
    pythonpath = [str(PROJECT_ROOT)] if source_checkout else []
    pythonpath += [p for p in [env.get("PYTHONPATH")] if p]
    env["PYTHONPATH"] = os.pathsep.join(pythonpath)
    return env


LOCKSTEP_ENVS = (step_states.STATES_ENV, step_states.STATES_LIMIT_ENV, step_states.REPLAY_ENV)


@dataclass(frozen=True)
class Lockstep:
    """Where a run writes its per-step state (``runtime.step_states``), and the plan of a
    replay that sets its variables after each step; both outside the run's sandbox."""

    states: Path
    limit: int = step_states.DEFAULT_LIMIT
    replay: Path | None = None

    def environment(self) -> dict[str, str]:
        env = {step_states.STATES_ENV: str(self.states), step_states.STATES_LIMIT_ENV: str(self.limit)}
        if self.replay is not None:
            env[step_states.REPLAY_ENV] = str(self.replay)
        return env


def child_environment(
    program: Path,
    trace_path: Path,
    max_steps: int | None,
    seed: int,
    values: bool = False,
    lockstep: Lockstep | None = None,
) -> dict[str, str]:
    """The environment of a run: the caller's, plus what makes runs comparable."""
    env = engine_environment()
    for name in (trace.MAX_STEPS_ENV, trace.VALUES_ENV, *LOCKSTEP_ENVS):
        env.pop(name, None)
    if values:
        env[trace.VALUES_ENV] = "1"
    if lockstep is not None:
        env.update(lockstep.environment())
    env.update(
        {
            "PYTHONHASHSEED": "0",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            SEED_ENV: str(seed),
            trace.TRACE_ENV: str(trace_path),
            trace.PROGRAM_ENV: str(program),
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "MPLBACKEND": "Agg",
        }
    )
    if max_steps is not None:
        env[trace.MAX_STEPS_ENV] = str(max_steps)
    return env


def run_program(
    program: Path,
    *,
    argv: Sequence[str] = (),
    stdin: bytes = b"",
    timeout: float = 120.0,
    memory_mb: int = 4096,
    max_steps: int | None = None,
    face: str = "auto",
    workdir: Path | None = None,
    source: str | None = None,
    runner: Runner = engine_command,
    seed: int = 0,
    values: bool = False,
    lockstep: Lockstep | None = None,
) -> RunResult:
    """Run ``program`` (inside ``workdir``, default its directory) in a fresh copy.

    With ``source``, the copy of the program file gets that text instead: how an
    in-memory rewrite is run without writing it into the user's tree. With
    ``values``, the trace also holds the values ops computed (``trace.ValueLog``); with
    ``lockstep``, the run writes its state at each step and may replay another's.
    """
    program = Path(program).resolve()
    if not program.is_file() and source is None:
        raise SandboxError(f"{program} does not exist")
    workdir = Path(workdir).resolve() if workdir is not None else program.parent
    try:
        relative = program.relative_to(workdir)
    except ValueError as error:
        raise SandboxError(f"{program} is not inside {workdir}") from error
    with tempfile.TemporaryDirectory(prefix="tfmigrate-run-") as tmp:
        root = copy_workdir(workdir, Path(tmp) / "work" / (workdir.name or "root"))
        copy = root / relative
        if source is not None:
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(source, encoding="utf-8")
        trace_path = Path(tmp) / "trace.json"
        out_path, err_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        env = child_environment(copy, trace_path, max_steps, seed, values, lockstep)
        env.update(private_environment(Path(tmp)), **{RUN_MARK_ENV: tmp})
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            process = subprocess.Popen(
                [*runner(copy, face), *argv],
                cwd=root,
                env=env,
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=err,
                # setrlimit must run in the child; the harness starts no threads of its own
                preexec_fn=memory_limit(memory_mb),  # noqa: PLW1509
                start_new_session=True,
            )
            timed_out = False
            try:
                process.communicate(stdin, timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                end_processes(process.pid, tmp, Path(tmp))
                process.wait()
        stderr = err_path.read_bytes().decode("utf-8", "replace")
        trace_data = _read_trace(trace_path)
        stdout_bytes = out_path.read_bytes()
        shown = {str(root): str(workdir), str(Path(tmp) / "home"): os.path.expanduser("~")}
        for temporary, original in shown.items():
            for spelling in dict.fromkeys([temporary, os.path.realpath(temporary)]):
                stdout_bytes = _replace_path(stdout_bytes, spelling, original, trace_data)
    exception, message = parse_exception(stderr) if process.returncode != 0 else (None, None)
    line = traceback_line(stderr, copy) if exception else None
    exit_code = process.returncode
    if exception == "StopProgram":  # a runner that did not use trace.run_main
        exit_code, exception, message = 0, None, None
        if trace_data is not None:
            trace_data["stopped_early"] = True
    return RunResult(
        stdout=stdout_bytes.decode("utf-8", "replace"),
        stderr=stderr,
        exit_code=exit_code,
        exception=exception,
        trace=trace_data,
        timed_out=timed_out,
        exception_message=message,
        exception_line=line,
    )


def _replace_path(
    stdout: bytes, temporary: str, original: str, trace_data: dict[str, Any] | None
) -> bytes:
    """Show the user's directory where a program printed its copy's path.

    Both runs then print the same path. The trace's stdout offsets move with the text.
    """
    old, new = temporary.encode(), original.encode()
    ends = [m.end() for m in re.finditer(re.escape(old), stdout)]
    if not ends:
        return stdout
    delta = len(new) - len(old)

    def moved(offset: int | None) -> int | None:
        return None if offset is None else offset + delta * bisect.bisect_right(ends, offset)

    if trace_data is not None:
        for entry in trace_data["steps"] + trace_data["variables"]:
            entry["stdout_offset"] = moved(entry.get("stdout_offset"))
        trace_data["prints"] = [[moved(offset), line] for offset, line in trace_data["prints"]]
    return stdout.replace(old, new)


def _read_trace(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def seed_from_env() -> None:
    """Seed numpy's global RNG and ``random`` from ``TFMIGRATE_SEED`` (runner side)."""
    seed = int(os.environ.get(SEED_ENV, "0"))
    np.random.seed(seed)
    random.seed(seed)


def run_as_main(program: str, argv: Sequence[str]) -> None:
    """Run ``program`` as ``__main__`` like ``python PROG ARGS`` would, seeded and traced."""
    sys.argv = [program, *argv]
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
    seed_from_env()
    trace.run_main(lambda: run_path(program))


def run_module_as_main(module: str, argv: Sequence[str]) -> None:
    """Run a runner module like ``python -m MODULE ARGS``, after seeding.

    Seeding here does not depend on the runner doing it; a spent step budget
    ends with status 0 even if the runner lets ``StopProgram`` through.
    """
    sys.argv = [module, *argv]
    seed_from_env()
    trace.run_main(lambda: runpy.run_module(module, run_name="__main__", alter_sys=True))


def _bootstrap(args: Sequence[str]) -> None:
    """``python -m runtime.sandbox [--module MODULE] ARGS...``: the child side of a run."""
    if args[0] == "--module":
        run_module_as_main(args[1], args[2:])
    else:
        run_as_main(args[0], args[1:])


if __name__ == "__main__":
    _bootstrap(sys.argv[1:])
