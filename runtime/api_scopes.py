"""``tf.name_scope`` for both modes: graph scopes uniquify, eager scopes only prefix names."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from runtime import context

_EAGER_STACK: list[str] = []


def eager_scope_prefix() -> str:
    return "".join(s + "/" for s in _EAGER_STACK)


@contextlib.contextmanager
def name_scope(name: Any, default_name: Any = None, values: Any = None) -> Iterator[str]:
    name = name if name is not None else default_name
    if context.executing_eagerly():
        if name and not str(name).endswith("/"):
            _EAGER_STACK.append(str(name))
            try:
                yield eager_scope_prefix()
            finally:
                _EAGER_STACK.pop()
        else:
            yield str(name or "")
        return
    with context.get_default_graph().name_scope(name) as scope:
        yield scope


class NameScopeV2:
    """TF2 ``tf.name_scope(name)``: a context manager object with ``.name``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cm: Any = None

    def __enter__(self) -> str:
        self._cm = name_scope(self.name)
        return self._cm.__enter__()

    def __exit__(self, *exc: object) -> Any:
        return self._cm.__exit__(*exc)


@contextlib.contextmanager
def device_v1(device_name_or_function: Any) -> Iterator[None]:
    """``tf.device`` (TF1): placement only; the engine runs every op on its one CPU."""
    if context.executing_eagerly() and callable(device_name_or_function):
        raise RuntimeError("tf.device does not support functions when eager execution is enabled.")
    yield


@contextlib.contextmanager
def device_v2(device_name: Any) -> Iterator[None]:
    """``tf.device`` (TF2): a device string or spec only."""
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions.")  # noqa: TRY004 - as TF raises
    yield
