"""TensorFlow's exception classes (``tf.errors.*``) and the engine's ``Unsupported``."""

from __future__ import annotations

from typing import Any


class Unsupported(NotImplementedError):
    """An API the engine does not implement; names it so verify can report it."""

    def __init__(self, api: str) -> None:
        super().__init__(f"{api} is not supported by the tfmigrate engine")
        self.api = api


class OpError(Exception):
    """Base of TF runtime errors; carries ``node_def``, ``op`` and ``message`` like TF."""

    def __init__(self, node_def: Any = None, op: Any = None, message: str = "", *args: Any) -> None:
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message


def _error(name: str) -> type:
    return type(name, (OpError,), {"__module__": "tensorflow.python.framework.errors_impl"})


CancelledError = _error("CancelledError")
UnknownError = _error("UnknownError")
InvalidArgumentError = _error("InvalidArgumentError")
DeadlineExceededError = _error("DeadlineExceededError")
NotFoundError = _error("NotFoundError")
AlreadyExistsError = _error("AlreadyExistsError")
PermissionDeniedError = _error("PermissionDeniedError")
ResourceExhaustedError = _error("ResourceExhaustedError")
FailedPreconditionError = _error("FailedPreconditionError")
AbortedError = _error("AbortedError")
OutOfRangeError = _error("OutOfRangeError")
UnimplementedError = _error("UnimplementedError")
InternalError = _error("InternalError")
UnavailableError = _error("UnavailableError")
DataLossError = _error("DataLossError")
UnauthenticatedError = _error("UnauthenticatedError")
OperatorNotAllowedInGraphError = type(
    "OperatorNotAllowedInGraphError", (TypeError,), {"__module__": "tensorflow.python.framework.errors_impl"}
)


def invalid_argument(message: str) -> OpError:
    return InvalidArgumentError(None, None, message)
