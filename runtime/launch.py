"""``tfmigrate run`` with limits: the program in a child process, attached to this terminal.

Plain ``tfmigrate run`` runs the program in its own process (``runtime.run``). With a
timeout or a memory cap it must be a child that can be ended; with ``sandbox`` it also
runs in a copy of its folder by value, with its own home and temporary folder, as under
``verify`` (``runtime.confine``), and what it writes there is discarded. Either way the
child gets its own session, and it and every process it started are ended with the run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from types import FrameType

from runtime.confine import RUN_MARK_ENV, end_processes, memory_limit, private_environment
from runtime.sandbox import copy_workdir, engine_environment

#: The exit status of a program stopped by its timeout, as GNU ``timeout`` reports it.
EXIT_TIMEOUT = 124
EXIT_INTERRUPTED = 130


def _raise_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def run_limited(
    program: Path,
    args: list[str],
    *,
    face: str,
    sandbox: bool,
    timeout: float | None,
    memory_mb: int | None,
) -> int:
    """Run ``program`` on the engine in a child process; its exit status.

    Its stdin, stdout and stderr are this process's. Ctrl-C is passed on to it (a second
    one ends it); SIGTERM ends it at once.
    """
    program = Path(program).resolve()
    env = engine_environment()
    with ExitStack() as stack:
        folder = None
        if sandbox:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tfmigrate-run-")))
            root = copy_workdir(program.parent, folder / "work" / program.parent.name)
            program, cwd = root / program.name, root
            env.update(private_environment(folder))
        else:
            cwd = Path.cwd()
        mark = str(folder) if folder else uuid.uuid4().hex
        env[RUN_MARK_ENV] = mark
        previous = signal.signal(signal.SIGTERM, _raise_exit)
        stack.callback(signal.signal, signal.SIGTERM, previous)
        child = subprocess.Popen(
            [sys.executable, "-m", "runtime.run", "--face", face, str(program), *args],
            cwd=cwd,
            env=env,
            # setrlimit must run in the child; this process starts no threads of its own
            preexec_fn=memory_limit(memory_mb),  # noqa: PLW1509
            start_new_session=True,  # so that it and all it starts can be ended together
        )
        stack.callback(child.wait)  # after the next: callbacks run last first
        stack.callback(end_processes, child.pid, mark, folder)
        return _wait(child, timeout)


def _wait(child: subprocess.Popen, timeout: float | None) -> int:
    deadline = None if timeout is None else time.monotonic() + timeout
    interrupted = False
    while True:
        try:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            return child.wait(left)
        except subprocess.TimeoutExpired:
            print(f"tfmigrate run: stopped after {timeout:g} s (--timeout)", file=sys.stderr)
            return EXIT_TIMEOUT
        except KeyboardInterrupt:
            if interrupted:
                return EXIT_INTERRUPTED
            interrupted = True
            try:
                os.killpg(child.pid, signal.SIGINT)  # the child's own session did not get it
            except ProcessLookupError:
                pass
