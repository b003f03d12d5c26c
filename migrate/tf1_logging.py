"""`tf.logging` calls as TF2 writes them: methods of `tf.get_logger()` (TF108).

TF1's `tf.logging.info(msg, *args)` is `get_logger().info(msg, *args)` (TF's tf_logging), and
`set_verbosity(level)` is `get_logger().setLevel(level)`: the same "tensorflow" logger, the same
levels and output. A level constant passed to `set_verbosity` is written by name, which
`Logger.setLevel` takes; elsewhere it keeps its compat.v1 spelling (TF2 has no such constants).
"""

from __future__ import annotations

import libcst as cst

#: tf.logging function -> the method of the "tensorflow" logger it calls
LOGGER_METHODS: dict[str, str] = {
    "logging.debug": "debug", "logging.info": "info", "logging.warn": "warning",
    "logging.warning": "warning", "logging.error": "error", "logging.fatal": "critical",
    "logging.log": "log", "logging.set_verbosity": "setLevel", "logging.get_verbosity": "getEffectiveLevel",
}
#: tf.logging level constants -> the level name `Logger.setLevel` takes
LEVEL_NAMES: dict[str, str] = {
    "logging.DEBUG": "DEBUG", "logging.INFO": "INFO", "logging.WARN": "WARNING",
    "logging.ERROR": "ERROR", "logging.FATAL": "CRITICAL",
}


def logger_call(path: str, call: cst.Call, alias: str) -> cst.Call:
    """`tf.get_logger().<method>(...)` with the call's arguments."""
    logger = cst.Call(func=cst.Attribute(value=cst.Name(alias), attr=cst.Name("get_logger")))
    return call.with_changes(func=cst.Attribute(value=logger, attr=cst.Name(LOGGER_METHODS[path])))


def level_name(path: str | None) -> cst.SimpleString | None:
    """The level name of a tf.logging constant, as a string literal."""
    name = LEVEL_NAMES.get(path or "")
    return cst.SimpleString(f'"{name}"') if name else None
