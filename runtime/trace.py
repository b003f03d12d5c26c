"""What a program lets the world see, recorded while it runs on the engine.

The engine reports two kinds of event here: a variable was created, and an
optimizer applied one update step. The verification harness turns them, plus
stdout and the exit status, into a trace it can compare between two programs.

Recording is off unless a trace file is named (``TFMIGRATE_TRACE``), so plain
``tfmigrate run`` pays nothing for it.
"""

from __future__ import annotations

import atexit
import json
import os
from typing import Any, Iterable, Protocol

import numpy as np

TRACE_ENV = "TFMIGRATE_TRACE"
MAX_STEPS_ENV = "TFMIGRATE_MAX_STEPS"


class TracedVariable(Protocol):
    """The part of an engine variable the trace needs."""

    def numpy(self) -> np.ndarray: ...


class StopProgram(BaseException):
    """Raised after the step budget (``--max-steps``) is spent; ends the program cleanly.

    A BaseException so user ``except Exception`` blocks do not swallow it.
    """


def variable_key(var: Any) -> str:
    """Key a variable by the name users know: ``dense1/weight`` (no ``:0``)."""
    name = getattr(var, "path", None) or getattr(var, "name", None) or ""
    return name[:-2] if name.endswith(":0") else name


class Recorder:
    """Collects variables and optimizer steps; writes them as JSON at exit."""

    def __init__(self, path: str | None, max_steps: int | None) -> None:
        self.path = path
        self.max_steps = max_steps
        self.variables: list[Any] = []
        self.steps: list[list[dict[str, Any]]] = []
        self.source_lines: dict[str, int] = {}

    @property
    def active(self) -> bool:
        return self.path is not None or self.max_steps is not None

    def variable_created(self, var: Any, line: int | None = None) -> None:
        if not self.active:
            return
        self.variables.append(var)
        if line is not None:
            self.source_lines.setdefault(variable_key(var), line)

    def optimizer_step(self, grads_and_vars: Iterable[tuple[Any, Any]]) -> None:
        """Record one applied update; stop the program once the step budget is spent."""
        if not self.active:
            return
        if self.max_steps is not None and len(self.steps) >= self.max_steps:
            raise StopProgram(f"stopped after {self.max_steps} optimizer steps")
        if self.path is not None:
            self.steps.append(
                [
                    {"var": variable_key(v), "grad": None if g is None else _jsonable(g)}
                    for g, v in grads_and_vars
                ]
            )
        else:
            self.steps.append([])

    def snapshot(self) -> dict[str, Any]:
        final = []
        for index, var in enumerate(self.variables):
            value = np.asarray(var.numpy())
            final.append(
                {
                    "var": variable_key(var),
                    "index": index,
                    "shape": list(value.shape),
                    "value": _jsonable(value),
                    "line": self.source_lines.get(variable_key(var)),
                }
            )
        return {"steps": self.steps, "variables": final}

    def write(self) -> None:
        if self.path is None:
            return
        with open(self.path, "w", encoding="utf-8") as fh:
            json.dump(self.snapshot(), fh)


def _jsonable(value: Any) -> Any:
    array = np.asarray(value)
    if array.dtype.kind in "fc":
        array = array.astype(np.float64)
    return array.tolist()


def _from_env() -> Recorder:
    steps = os.environ.get(MAX_STEPS_ENV)
    recorder = Recorder(os.environ.get(TRACE_ENV), int(steps) if steps else None)
    if recorder.path is not None:
        atexit.register(recorder.write)
    return recorder


recorder = _from_env()
variable_created = recorder.variable_created
optimizer_step = recorder.optimizer_step
