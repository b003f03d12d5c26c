"""What a comparison of two runs reports, and how close two numbers must be to agree.

``Tolerance`` judges ``|new - old| <= atol + rtol * scale``, with ``rtol`` widening as
optimizer steps compound rounding (``drift_factor``); ``runtime.compare`` says which scale
each observable takes and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Divergence:
    """Where two runs first differ."""

    observable: str  # "stdout" | "summary" | "checkpoint" | "gradient" | "optimizer" | "variable" | "exit"
    step: int | None  # 1-based optimizer step (for stdout: steps run before it)
    variable: str | None
    old: Any
    new: Any
    old_line: int | None  # source line in the original that created the variable (or printed)
    new_line: int | None
    detail: str
    incomparable: str | None = None  # why the differing output says nothing either way


@dataclass
class Comparison:
    divergence: Divergence | None
    steps_compared: int
    max_abs_diff: float = 0.0
    max_rel_diff: float = 0.0
    variables_compared: int = 0
    printed_numbers_compared: int = 0
    notes: list[str] = field(default_factory=list)
    uncompared: list[str] = field(default_factory=list)  # state paired with nothing: why not


#: Optimizer steps whose values are judged at the base ``rtol``; past them it widens.
DRIFT_FREE_STEPS = 10
#: The most ``rtol`` widens, however long the run: 5e-4 stays 14x below the weakest
#: real mistake measured.
DRIFT_CAP = 5.0


def drift_factor(steps: Any) -> Any:
    """How far ``rtol`` widens for values computed after ``steps`` optimizer steps.

    Rounding differences enter once per step and add up like a random walk,
    so the allowance grows like the square root of the steps taken.
    """
    return np.clip(np.sqrt(np.asarray(steps, np.float64) / DRIFT_FREE_STEPS), 1.0, DRIFT_CAP)


@dataclass
class Tolerance:
    rtol: float = 1e-4
    atol: float = 1e-6

    def close(self, new: Any, old: Any, scale: Any = None, steps: Any = 0) -> np.ndarray:
        """``|new - old| <= atol + rtol*|old|``, or ``rtol*scale`` for a tensor's elements.

        ``scale`` is one number or one per element, and so is ``steps``, the
        optimizer steps taken before the value was computed (``drift_factor``).
        NaN equals NaN, inf equals inf of the same sign.
        """
        new, old = np.asarray(new, np.float64), np.asarray(old, np.float64)
        base = np.abs(old) if scale is None else np.asarray(scale, np.float64)
        rtol = self.rtol * drift_factor(steps)
        with np.errstate(invalid="ignore", over="ignore"):
            within = np.abs(new - old) <= self.atol + rtol * base
        within &= np.isfinite(new) & np.isfinite(old)
        return within | (new == old) | (np.isnan(new) & np.isnan(old))


class Stats:
    """Largest absolute and relative differences seen among values that matched, and counts."""

    def __init__(self) -> None:
        self.max_abs = 0.0
        self.max_rel = 0.0
        self.printed_numbers = 0
        self.variables = 0

    def add(self, new: Any, old: Any, scale: Any = None) -> None:
        new, old = np.asarray(new, np.float64), np.asarray(old, np.float64)
        finite = np.isfinite(new) & np.isfinite(old)
        if not finite.any():
            return
        diff = np.abs(new[finite] - old[finite])
        self.max_abs = max(self.max_abs, float(diff.max()))
        base = np.abs(old) if scale is None else np.asarray(scale, np.float64)
        base = np.broadcast_to(base, old.shape)[finite]
        nonzero = base > 0
        if nonzero.any():
            self.max_rel = max(self.max_rel, float((diff[nonzero] / base[nonzero]).max()))


@dataclass
class Candidate:
    """A divergence with its place in the original's order (stdout bytes written before it)."""

    divergence: Divergence
    position: int | None
    rank: int  # tie-break and fallback order: structure, gradient, stdout, state, exit
    # One side stopped producing this observable, or its value is cut short there: a crash
    # on that side explains it, so the crash is reported instead.
    ended: bool = False
