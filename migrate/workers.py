"""Workers that never outlive their run, and signals that end a run between writes.

A run ended by a signal must leave every file either as it was or fully rewritten, and no
process behind. So a signal is never let in while a file (or a cache entry) is being
written: it waits for that write to finish. In the main process SIGINT and SIGTERM become
:class:`Interrupted`, which ends the pool's workers; a worker ends itself, at once or
right after its write, when told to (SIGTERM) or when the main process is gone (Linux
sends it SIGTERM then; elsewhere a watch thread notices, and each file checks again).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FrameType

from migrate.cache import Cache
from migrate.files import write_atomic
from migrate.process import FileResult, Job, process_file

#: Writes a signal must not cut short: they leave a temporary file until they rename it.
WRITES: frozenset[CodeType] = frozenset({write_atomic.__code__, Cache.put.__code__})
#: Signals that end a run; the exit status is 128 + the signal's number, as a shell reports it.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: How often a worker without Linux's parent-death signal looks for its parent.
WATCH_SECONDS = 0.5
#: How long ended workers get to finish the write they are in before they are killed.
GRACE_SECONDS = 5.0
#: Fork (Linux) and spawn both make each worker a child of the main process, which the
#: parent check relies on (a fork server would stand between them).
START_METHOD = "fork" if sys.platform == "linux" else "spawn"
PR_SET_PDEATHSIG = 1


class Interrupted(BaseException):
    """The run was ended by a signal, between two writes.

    Not an ``Exception``: what reports one file's failure and goes on must let it through.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _writing(frame: FrameType | None) -> bool:
    """Whether the code a signal interrupted is inside one of :data:`WRITES`."""
    while frame is not None:
        if frame.f_code in WRITES:
            return True
        frame = frame.f_back
    return False


class _Deferred:
    """A signal handler that acts at once, or right after the write it arrived in."""

    def __init__(self, act: Callable[[int], None]) -> None:
        self.act = act
        self.pending: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if _writing(frame):
            self.pending = signum
        else:
            self.act(signum)

    def act_on_pending(self) -> None:
        if self.pending is not None:
            self.act(self.pending)


def _raise_interrupted(signum: int) -> None:
    raise Interrupted(signum)


@contextmanager
def stop_on_signals() -> Iterator[_Deferred]:
    """In the main process: SIGINT and SIGTERM raise :class:`Interrupted`, never mid-write.

    Call ``act_on_pending()`` on what it yields after each file. A signal ignored when the
    run began (SIGINT in a shell's background job) stays ignored; outside the main thread,
    where handlers cannot be set, the signals keep their usual effect.
    """
    handler = _Deferred(_raise_interrupted)
    if threading.current_thread() is not threading.main_thread():
        yield handler
        return
    previous = {
        signum: signal.signal(signum, handler)
        for signum in STOP_SIGNALS
        if signal.getsignal(signum) is not signal.SIG_IGN
    }
    try:
        yield handler
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


def _exit_worker(signum: int) -> None:
    os._exit(128 + signum)  # the pool's loop would catch SystemExit and take the next file


_worker_stop = _Deferred(_exit_worker)
_main_pid = 0


def _die_with_parent() -> bool:
    """Ask Linux to send SIGTERM when the main process dies; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent() -> None:
    while os.getppid() == _main_pid:
        threading.Event().wait(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)  # handled in the main thread, after any write


def _init_worker(main_pid: int) -> None:
    """Set up a worker: Ctrl-C is the main process's to handle; SIGTERM ends it between writes."""
    global _main_pid
    _main_pid = main_pid
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal sends it to the whole group
    signal.signal(signal.SIGTERM, _worker_stop)
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, daemon=True).start()
    if os.getppid() != main_pid:  # the main process died before the worker could watch it
        _exit_worker(signal.SIGTERM)


def _in_worker(path: Path, job: Job) -> FileResult:
    """One file in a worker; none is begun once the main process is gone."""
    if os.getppid() != _main_pid:
        _exit_worker(signal.SIGTERM)
    result = process_file(path, job)
    _worker_stop.act_on_pending()
    return result


@contextmanager
def worker_pool(jobs: int) -> Iterator[Callable[[list[Path], Job], Iterator[FileResult]]]:
    """A pool of ``jobs`` workers; yields ``map(paths, job)``, results in the order of paths.

    Leaving it by an exception (:class:`Interrupted` included) ends every worker first.
    """
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context(START_METHOD),
        initializer=_init_worker,
        initargs=(os.getpid(),),
    )

    def run(paths: list[Path], job: Job) -> Iterator[FileResult]:
        return pool.map(_in_worker, paths, [job] * len(paths))

    try:
        yield run
    except BaseException:
        _end_workers(pool)
        raise
    pool.shutdown()


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """SIGTERM each worker (it ends after the write it may be in), then kill any left."""
    workers = list((pool._processes or {}).values())  # no public way before Python 3.14
    for worker in workers:
        worker.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.join(GRACE_SECONDS)
        if worker.is_alive():
            worker.kill()
            worker.join()
