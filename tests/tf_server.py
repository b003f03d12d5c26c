"""Run Python programs on real TensorFlow, each in a child forked from one warm interpreter.

Importing TensorFlow and Keras costs seconds, and the referee tier runs hundreds of
programs. This server imports them once, then forks a child per request: the child
starts from the parent's pristine state (no op has run, no graph or eager context
exists), so nothing one program does can reach the next. It runs under the referee's
Python (``TFMIGRATE_TF_PYTHON``); ``tests/tf_runner.py`` is its client.

Protocol: one JSON request per line on stdin, one JSON reply per line on stdout.
A request is ``{"args", "cwd", "stdin", "env", "timeout"}`` where ``args`` is what
follows the interpreter on a command line (``["-c", code, ...]`` or ``[script, ...]``);
the reply is ``{"rc", "stdout", "stderr", "timed_out"}``, with ``rc`` negative for a
signal, as :mod:`subprocess` reports it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import time

#: The server talks over these; children get their own standard streams.
_REQUESTS = os.fdopen(os.dup(0), "r", encoding="utf-8")
_REPLIES = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)  # what the imports print goes to the server's stderr, not into a reply
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # requests are read through their own descriptor
#: The interpreter's own search path, without this script's folder (a child gets its own first).
_BASE_PATH = sys.path[1:]

import keras  # noqa: F401  (warm: tf.keras loads Keras 3 on first use)
import tensorflow.compat.v1  # noqa: F401  (warm: the TF1 face imports it)


def _path0(args: list[str]) -> str:
    """``sys.path[0]`` as the interpreter sets it for this command line."""
    if args[0] in ("-c", "-"):
        return ""
    return os.path.dirname(os.path.realpath(args[0]))


def _child(request: dict, stdin: str, stdout: str, stderr: str) -> None:
    """Become the program: its cwd, environment, argv, streams and ``__main__``; never return."""
    import atexit
    import random
    import runpy
    import threading
    import traceback
    import types

    os.setpgid(0, 0)
    for fd, name, flags in ((0, stdin, os.O_RDONLY), (1, stdout, os.O_WRONLY), (2, stderr, os.O_WRONLY)):
        handle = os.open(name, flags)
        os.dup2(handle, fd)
        os.close(handle)
    _REQUESTS.close()
    _REPLIES.close()
    # The interpreter's own stream objects, now over the program's files: TensorFlow keeps
    # references to them (tf.print to sys.stdout writes through the object it saw at import).
    encoding = request["env"].get("PYTHONIOENCODING", "utf-8")
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        stream.reconfigure(encoding=encoding)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    args = request["args"]
    extra = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [_path0(args), *extra, *_BASE_PATH]
    # A fresh interpreter seeds these from the OS; a fork would share the parent's state.
    random.seed()
    import numpy

    numpy.random.seed()
    rc = 0
    try:
        if args[0] == "-c":
            sys.argv = ["-c", *args[2:]]
            main = types.ModuleType("__main__")
            main.__builtins__ = __builtins__
            sys.modules["__main__"] = main
            exec(compile(args[1], "<string>", "exec"), main.__dict__)  # noqa: S102  (python -c)
        else:
            sys.argv = list(args)
            runpy.run_path(args[0], run_name="__main__")
    except SystemExit as exit_:
        code = exit_.code
        if code is None:
            rc = 0
        elif isinstance(code, int):
            rc = code
        else:
            print(code, file=sys.stderr)
            rc = 1
    except BaseException as error:  # noqa: BLE001  (the interpreter's own top level)
        tb = error.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename in (__file__, runpy.__file__):
            tb = tb.tb_next  # frames a fresh interpreter would not show
        traceback.print_exception(type(error), error, tb)
        rc = 1
    try:
        threading._shutdown()  # as interpreter shutdown: join non-daemon threads, then atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001
        rc = rc or 120
    os._exit(rc & 0xFF)


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    """(returncode as subprocess reports it, timed out) of child ``pid``."""
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            return -signal.SIGKILL, True
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def _serve(request: dict) -> dict:
    # mkdtemp, not TemporaryDirectory: the child runs atexit handlers, and a finalizer
    # registered here would delete the folder from inside the child.
    folder = tempfile.mkdtemp(prefix="tf-server-")
    try:
        names = [os.path.join(folder, n) for n in ("stdin", "stdout", "stderr")]
        for name, text in zip(names, (request.get("stdin") or "", "", "")):
            with open(name, "w", encoding="utf-8") as handle:
                handle.write(text)
        pid = os.fork()
        if pid == 0:
            try:
                _child(request, *names)
            finally:
                os._exit(121)
        rc, timed_out = _wait(pid, request.get("timeout") or 600)
        try:
            os.killpg(pid, signal.SIGKILL)  # what the program left running in its group
        except (ProcessLookupError, PermissionError):
            pass
        with open(names[1], encoding="utf-8", errors="replace") as out, \
                open(names[2], encoding="utf-8", errors="replace") as err:
            return {"rc": rc, "stdout": out.read(), "stderr": err.read(), "timed_out": timed_out}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    _REPLIES.write(json.dumps({"ready": True}) + "\n")
    _REPLIES.flush()
    for line in _REQUESTS:
        _REPLIES.write(json.dumps(_serve(json.loads(line))) + "\n")
        _REPLIES.flush()


if __name__ == "__main__":
    main()
