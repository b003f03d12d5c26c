"""Run a program under the referee's TensorFlow as ``subprocess.run`` would, but cheaply.

``run([python, *args], cwd=..., input=..., env=..., timeout=...)`` returns a
``CompletedProcess``. When ``python`` is the referee interpreter, the program runs in
a child forked from a server that imported TensorFlow once (``tests/tf_server.py``),
which saves the ~4 s import per program and leaks no state between programs; any other
interpreter, or ``TFMIGRATE_TF_FORK=0``, starts a fresh process. Both paths return the
same streams: TensorFlow's start-up log lines, which a fresh process may print on some CPUs
before any program code runs, are taken out of stderr.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import subprocess
import threading
from pathlib import Path

SERVER = Path(__file__).resolve().parent / "tf_server.py"
FORK_ENV = "TFMIGRATE_TF_FORK"
#: The environment every referee interpreter starts with (the server reads it at start-up).
#: oneDNN's custom kernels are off: they sum in a CPU-dependent order (TF's own start-up
#: message says so), and the recorded outputs must not depend on the machine that checks them.
BASE_ENV = {
    "TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0", "PYTHONHASHSEED": "0",
    "PYTHONIOENCODING": "utf-8",
}
#: Printed by TensorFlow's native start-up, before ``absl::InitializeLog`` and whatever
#: ``TF_CPP_MIN_LOG_LEVEL`` says; it depends on the CPU, not on the program.
_STARTUP_NOISE = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR"
    r"|I0000 00:00:\S+ +\d+ port\.cc:\d+\] oneDNN custom operations are on\..*"
    r"|I0000 00:00:\S+ +\d+ cpu_feature_guard\.cc:\d+\] .*)\n",
    re.MULTILINE,
)


def quiet(stderr: str) -> str:
    """``stderr`` without TensorFlow's CPU-dependent start-up lines."""
    return _STARTUP_NOISE.sub("", stderr)


class _Server:
    """One warm TensorFlow interpreter serving one request at a time."""

    def __init__(self, python: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(BASE_ENV)
        self.process = subprocess.Popen(
            [python, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, encoding="utf-8", env=env,
        )
        if json.loads(self._line()) != {"ready": True}:
            raise RuntimeError("the TensorFlow server did not start")

    def _line(self) -> str:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the TensorFlow server exited ({self.process.poll()})")
        return line

    def run(self, request: dict) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self._line())

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class _Pool:
    """Idle servers per interpreter; a thread takes one (or starts one) per program."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: dict[str, list[_Server]] = {}
        self.all: list[_Server] = []
        atexit.register(self.close)

    def take(self, python: str) -> _Server:
        with self.lock:
            if self.idle.get(python):
                return self.idle[python].pop()
        server = _Server(python)
        with self.lock:
            self.all.append(server)
        return server

    def give(self, python: str, server: _Server) -> None:
        with self.lock:
            self.idle.setdefault(python, []).append(server)

    def close(self) -> None:
        for server in self.all:
            server.close()
        self.all.clear()
        self.idle.clear()


_POOL = _Pool()


def _forked(python: str, env: dict[str, str]) -> bool:
    """Is ``python`` the referee, and does the program's environment not ask for a fresh process?"""
    referee = os.environ.get("TFMIGRATE_TF_PYTHON")
    return bool(referee) and python == referee and env.get(FORK_ENV, "1") != "0"


def run(
    command: list[str], *, cwd: str | Path, input: str = "", env: dict[str, str] | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess:
    """Run ``command`` (an interpreter and its arguments); raise ``TimeoutExpired`` as subprocess does."""
    env = dict(os.environ if env is None else env, **BASE_ENV)
    if not _forked(command[0], env):
        proc = subprocess.run(command, input=input, capture_output=True, text=True, encoding="utf-8",
                              env=env, cwd=cwd, timeout=timeout, check=False)
        return subprocess.CompletedProcess(command, proc.returncode, proc.stdout, quiet(proc.stderr))
    server = _POOL.take(command[0])
    try:
        reply = server.run({"args": command[1:], "cwd": str(cwd), "stdin": input, "env": env,
                            "timeout": timeout})
    except BaseException:
        server.close()
        raise
    _POOL.give(command[0], server)
    if reply["timed_out"]:
        raise subprocess.TimeoutExpired(command, timeout, reply["stdout"], reply["stderr"])
    return subprocess.CompletedProcess(command, reply["rc"], reply["stdout"], quiet(reply["stderr"]))
