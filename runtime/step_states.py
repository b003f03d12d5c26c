"""The model's state at every optimizer step, recorded in full and, on request, replayed.

Program side of the lockstep comparison (``runtime.lockstep`` is the verifier's side). A
free run compares two programs whose weights drift apart as training compounds their
rounding, so its tolerance must widen with the steps and with the weights' scale; a wrong
gradient hides in that allowance once the weights explode or vanish. Lockstep takes the
drift away: the rewrite runs a second time and, after each of its updates, its variables are
set to the values the original's had after the same update, so every step's gradient is
computed from the original's state and can be compared at float32 rounding.

``StateLog`` (``TFMIGRATE_STATES`` names its file) writes, per step and per variable the
step updates, its value before the update (``pre``), its gradient (``grad``) and its value
after (``post``) as raw bytes, and keeps an index of them for the trace. Only the model's
variables are written (those an optimizer steps), and only whole steps while the file stays
under ``TFMIGRATE_STATES_LIMIT`` bytes; the index says where it stopped.

``Replay`` (``TFMIGRATE_REPLAY`` names its plan, written by ``runtime.lockstep``) sets the
variables after each update. The plan names, per step, the variables the rewrite updated in
its free run and where the original's value after that step lies in the original's file; a
step that updates other variables than planned ends the replay, and the trace says why.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

STATES_ENV = "TFMIGRATE_STATES"
STATES_LIMIT_ENV = "TFMIGRATE_STATES_LIMIT"
REPLAY_ENV = "TFMIGRATE_REPLAY"
#: Bytes of state a run writes at most, by default: a small MLP's 200 steps.
DEFAULT_LIMIT = 256 * 2**20

Entry = list[Any]  # [step (1-based), creation index, kind, byte offset, dtype, shape]


class StateLog:
    """Writes the state of each optimizer step's variables; ``index`` says where each lies."""

    def __init__(self, path: str, limit: int) -> None:
        self.path = path
        self.limit = limit
        self.index: list[Entry] = []
        self.steps = 0  # steps written in full
        self.truncated_at: int | None = None  # the first step left out for the limit
        self._file = open(path, "wb")  # noqa: SIM115 -- open for the whole run
        self._offset = 0
        self._pending: list[tuple[int, Any]] | None = None

    def before_update(self, step: int, stepped: list[tuple[int, Any, Any]]) -> None:
        """Step ``step`` is about to update ``stepped``: (creation index, value, gradient)."""
        self._pending = None
        if self.truncated_at is not None:
            return
        arrays = [(i, np.asarray(value), grad) for i, value, grad in stepped]
        size = sum(2 * a.nbytes + (0 if g is None else np.asarray(g).nbytes) for _, a, g in arrays)
        if self._offset + size > self.limit:
            self.truncated_at = step
            return
        for i, value, grad in arrays:
            self._write(step, i, "pre", value)
            if grad is not None:
                self._write(step, i, "grad", np.asarray(grad))
        self._pending = [(i, step) for i, _, _ in arrays]

    def after_update(self, values: dict[int, Any]) -> None:
        """The step announced last has been applied: ``values`` by creation index."""
        if self._pending is None:
            return
        for i, step in self._pending:
            self._write(step, i, "post", np.asarray(values[i]))
        self.steps = self._pending[0][1] if self._pending else self.steps
        self._pending = None
        self._file.flush()

    def _write(self, step: int, index: int, kind: str, array: np.ndarray) -> None:
        data = array if array.flags.c_contiguous else array.copy(order="C")  # keeps 0-d as 0-d
        self._file.write(data.tobytes())
        self.index.append([step, index, kind, self._offset, data.dtype.str, list(data.shape)])
        self._offset += data.nbytes

    def snapshot(self) -> dict[str, Any]:
        self._file.flush()
        return {"entries": self.index, "steps": self.steps, "truncated_at": self.truncated_at}


def read_array(path: str, entry: Entry) -> np.ndarray:
    """One array of a state file, by its index entry."""
    _, _, _, offset, dtype, shape = entry
    count = int(np.prod(shape, dtype=np.int64))
    return np.fromfile(path, dtype=np.dtype(dtype), count=count, offset=offset).reshape(shape)


class Replay:
    """Sets the stepped variables to the original's values after each update (see module doc)."""

    def __init__(self, plan_path: str) -> None:
        with open(plan_path, encoding="utf-8") as fh:
            plan = json.load(fh)
        self.blob: str = plan["blob"]
        self.steps: list[list[list[Any]]] = plan["steps"]  # per step: [index, key, entry]
        self.replayed = 0
        self.lost: dict[str, Any] | None = None  # where and why the replay ended early

    def after_update(self, step: int, stepped: list[tuple[int, str, Any, Any]]) -> None:
        """Step ``step`` updated ``stepped`` (creation index, key, variable, its value): set them."""
        if self.lost is not None or step > len(self.steps):
            return
        planned = self.steps[step - 1]
        got = sorted((i, key) for i, key, _, _ in stepped)
        if got != sorted((i, key) for i, key, _ in planned):
            self.lost = {
                "step": step,
                "why": f"step {step} updates {', '.join(k for _, k in got)}; its free run "
                f"updated {', '.join(k for _, k, _ in planned)}",
            }
            return
        current = {i: (var, np.asarray(value)) for i, _, var, value in stepped}
        for i, key, entry in planned:
            value = read_array(self.blob, entry)
            var, now = current[i]
            target = _settable(var)
            if target is None or now.shape != value.shape:
                self.lost = {"step": step, "why": f"{key} cannot be set to the original's value"}
                return
            target._assign_array(value.astype(now.dtype, copy=True))
        self.replayed = step

    def snapshot(self) -> dict[str, Any]:
        return {"replayed": self.replayed, "lost": self.lost}


def _settable(var: Any) -> Any:
    """What takes a new value for ``var``: the engine variable behind it, or ``var`` itself
    when it has the engine's ``_assign_array`` (a stand-in engine); else None."""
    from runtime.gradients import engine_variable

    var = getattr(var, "var", var)
    target = engine_variable(var)
    target = var if target is None else target
    return target if callable(getattr(target, "_assign_array", None)) else None


def from_env() -> tuple[StateLog | None, Replay | None]:
    """The state log and the replay this run was asked for, if any."""
    path = os.environ.get(STATES_ENV)
    log = StateLog(path, int(os.environ.get(STATES_LIMIT_ENV) or DEFAULT_LIMIT)) if path else None
    plan = os.environ.get(REPLAY_ENV)
    return log, Replay(plan) if plan else None
