"""``tf.train.Coordinator``: a stop flag threads share, and the first exception that stopped them.

TF 2.21 keeps it in ``tf.train``; without queue runners a program uses it for its stop flag
(``while not coord.should_stop()``) and ``request_stop``/``join`` in a ``finally``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from runtime import errors


class Coordinator:
    """TF's semantics: a clean-stop exception (`OutOfRangeError` by default) passed to
    `request_stop` stops without being raised; any other is raised again by `join`."""

    def __init__(self, clean_stop_exception_types: Iterable[type] | None = None) -> None:
        types_ = (errors.OutOfRangeError,) if clean_stop_exception_types is None else clean_stop_exception_types
        self._clean_stop_exception_types = tuple(types_)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise: Any = None
        self._joined = False
        self._registered_threads: set[threading.Thread] = set()

    def _filter_exception(self, ex: Any) -> Any:
        exception = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(exception, self._clean_stop_exception_types) else ex

    def request_stop(self, ex: Any = None) -> None:
        """Stop; `ex` (an exception or an exc_info tuple) is kept for `join` to raise. A
        non-tuple `ex` is read, as TF reads it, from the exception being handled."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:  # no join is left to report it
                if isinstance(ex, tuple):
                    raise ex[1]
                if ex is not None:
                    raise sys.exc_info()[1]  # type: ignore[misc]  # TF's: raises TypeError outside a handler
            if self._stop_event.is_set():
                return
            if ex is not None and self._exc_info_to_raise is None:
                info = ex if isinstance(ex, tuple) else sys.exc_info()
                if len(info) != 3 or not info[0] or not info[1]:
                    # TF formats the 3-tuple with one %s: its message raises TypeError
                    message = "ex must be a tuple or sys.exc_info must return the current exception: %s" % info  # noqa: UP031
                    info = (ValueError, ValueError(message), None)
                self._exc_info_to_raise = info
            self._stop_event.set()

    def clear_stop(self) -> None:
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        try:
            yield
        except BaseException:  # noqa: BLE001 - TF's records any exception, to raise it at join()
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads: Iterable[threading.Thread] | None = None, stop_grace_period_secs: float = 120,
             ignore_live_threads: bool = False) -> None:
        with self._lock:
            all_threads = self._registered_threads | set(threads or ())
        while any(t.is_alive() for t in all_threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.monotonic() + stop_grace_period_secs
        for thread in all_threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        stragglers = [t.name for t in all_threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise is not None:
                _, value, traceback = self._exc_info_to_raise
                raise value.with_traceback(traceback)
            if stragglers and not ignore_live_threads:
                raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(stragglers)}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        with self._lock:
            if self._exc_info_to_raise is not None:
                _, value, traceback = self._exc_info_to_raise
                raise value.with_traceback(traceback)
