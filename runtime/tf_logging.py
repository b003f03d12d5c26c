"""``tf.compat.v1.logging`` and ``tf.get_logger``: TF's Python logger, named "tensorflow".

TF writes through Python's ``logging`` to stderr as ``INFO:tensorflow:message`` once a program
lowers the level from its WARN default, so scripts that log progress run as they do under TF
and their stdout (what verify compares) is untouched.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

DEBUG, INFO, WARN, ERROR, FATAL = logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.FATAL
_count = [0]


def get_logger() -> logging.Logger:
    logger = logging.getLogger("tensorflow")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s:tensorflow:%(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
        logger.setLevel(WARN)
    return logger


def log(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().log(level, msg, *args, **kwargs)


def _at(level: int) -> Any:
    def emit(msg: Any, *args: Any, **kwargs: Any) -> None:
        get_logger().log(level, msg, *args, **kwargs)

    return emit


def _next_count() -> int:
    """TF keys these counts by the caller's file and line, but the first frame outside its
    logging module is TF's own API wrapper, so every call site shares one count."""
    _count[0] += 1
    return _count[0] - 1


def log_every_n(level: int, msg: Any, n: int, *args: Any) -> None:
    if _next_count() % n == 0:
        log(level, msg, *args)


def log_first_n(level: int, msg: Any, n: int, *args: Any) -> None:
    if _next_count() < n:
        log(level, msg, *args)


def set_verbosity(v: int) -> None:
    get_logger().setLevel(v)


def get_verbosity() -> int:
    return get_logger().getEffectiveLevel()


V1_TABLE: dict[str, Any] = {
    "DEBUG": DEBUG, "INFO": INFO, "WARN": WARN, "ERROR": ERROR, "FATAL": FATAL,
    "debug": _at(DEBUG), "info": _at(INFO), "warn": _at(WARN), "warning": _at(WARN),
    "error": _at(ERROR), "fatal": _at(FATAL), "log": log, "vlog": log,
    "log_every_n": log_every_n, "log_first_n": log_first_n,
    "set_verbosity": set_verbosity, "get_verbosity": get_verbosity, "flush": lambda: None,
}
