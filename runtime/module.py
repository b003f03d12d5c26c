"""``tf.Module``: a named container whose variables are found through its attributes."""

from __future__ import annotations

import re
from typing import Any

from runtime.variables import Variable


def _snake(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


class Module:
    """Base class for objects that own variables and submodules."""

    def __init__(self, name: str | None = None) -> None:
        self._name = name or _snake(type(self).__name__)

    @property
    def name(self) -> str:
        return getattr(self, "_name", _snake(type(self).__name__))

    def _flatten(self, predicate: Any) -> tuple:
        out: list = []
        seen: set[int] = set()

        def walk(obj: Any, depth: int) -> None:
            if id(obj) in seen or depth > 20:
                return
            seen.add(id(obj))
            if predicate(obj):
                out.append(obj)
                return
            if isinstance(obj, Module) or (depth == 0):
                items = [obj.__dict__[k] for k in sorted(vars(obj))] if hasattr(obj, "__dict__") else []
            elif isinstance(obj, dict):
                items = [obj[k] for k in sorted(obj, key=str)]
            elif isinstance(obj, (list, tuple)):
                items = list(obj)
            else:
                return
            for item in items:
                walk(item, depth + 1)

        walk(self, 0)
        return tuple(out)

    @property
    def variables(self) -> tuple:
        return self._flatten(lambda o: isinstance(o, Variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if v.trainable)

    @property
    def submodules(self) -> tuple:
        return tuple(m for m in self._flatten(lambda o: isinstance(o, Module) and o is not self))
