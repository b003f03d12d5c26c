"""Lockstep comparison: each optimizer step's gradients and updates from the same state.

The free run (``runtime.compare``) lets both programs train on their own; their weights
drift apart as float32 rounding compounds, so its tolerance scales with the weights and
widens with the steps, and a mistake small against that allowance passes (a bias gradient
scaled by 1.5 while the weights explode). Lockstep runs the rewrite once more, setting its
model variables after each update to the values the original's had after the same update
(``runtime.step_states`` records and replays them), and compares per step, per variable:

- ``pre``: the value the step starts from. It is the original's value after the previous
  step, changed only by what the rewrite does between steps, so it differs only where that
  code does something else;
- ``grad``: the gradient, computed by both from (nearly) the same state;
- the update, ``post - pre``: what the optimizer did with that gradient.

Each is judged against the largest magnitude of its own tensor at ``RTOL`` (1e-5, a small
multiple of float32 rounding: two programs computing the same formula through other ops
round differently); the update against the largest update of its step, at 1e-4 plus a few
roundings of the variable's magnitude, since a correct Keras Adam rewrite of TF1's Adam
corrects its bias by ``pow`` where TF1 multiplies float32 powers. No allowance grows with
the steps: every step starts from the original's state.

The original's run writes its states; the plan (``plan_replay``) pairs the rewrite's stepped
variables with the original's through ``compare.pair_variables``; ``compare_lockstep``
reads both state files. What lockstep cannot vouch for is said: a plan that cannot be made
(a variable without a counterpart, another shape), a replay that ended early, another number
of steps, a run that failed, the state budget spent before the last step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from runtime.observables import Divergence
from runtime.step_states import Entry, read_array
from runtime.variable_pairs import first_steps, model_variables, pair_variables

#: Relative difference within which two lockstep values are the same, per kind of value:
#: of the tensor's largest magnitude for a starting value and a gradient (both programs
#: compute them from the same state, so only the order of float32 operations differs); of
#: the step's largest update for an update (Keras's Adam corrects its bias by ``pow``, TF1's
#: by running float32 products: 1e-5 apart at step 3). A smaller ``--rtol`` tightens them.
RTOL = {"pre": 1e-5, "grad": 1e-5, "post": 1e-4}
#: An update is read as ``post - pre`` of float32 values: it is known to a few roundings of
#: the variable's own magnitude, however small the update.
UPDATE_ULPS = 4 * float(np.finfo(np.float32).eps)
TINY = float(np.finfo(np.float32).tiny)
#: A floor, relative to the largest value of the same kind in the step, for tensors that are
#: (nearly) zero: what is left of a cancellation there is float32 dust, which two programs
#: may round differently. Far below any gradient a mistake could hide in: a bias gradient
#: 1e-5 of the kernel's, scaled by 1.001, is 1e-8 of the step's scale.
STEP_FLOOR = 1e-9

Kind = str  # "pre" | "grad" | "post"


@dataclass
class LockstepResult:
    """What the lockstep comparison found, or why it cannot vouch for the run."""

    divergence: Divergence | None = None
    unverified: str | None = None
    steps: int = 0  # steps compared
    # per kind of value: the largest difference that passed, relative to its scale
    max_rel: dict[Kind, float] = field(default_factory=lambda: dict.fromkeys(RTOL, 0.0))
    notes: list[str] = field(default_factory=list)


def _entries(trace: dict[str, Any]) -> dict[tuple[int, int, Kind], Entry]:
    states = trace.get("states") or {}
    return {(e[0], e[1], e[2]): e for e in states.get("entries", [])}


def _pairs(old: dict[str, Any], new: dict[str, Any]) -> dict[int, int]:
    return pair_variables(old["variables"], new["variables"], model_variables(old), model_variables(new),
                          first_steps(old), first_steps(new))


def recorded_steps(trace: dict[str, Any]) -> int:
    """How many steps a trace's state file holds in full."""
    return int((trace.get("states") or {}).get("steps", 0))


def plan_replay(
    old: dict[str, Any], old_states: Path, new: dict[str, Any]
) -> tuple[dict[str, Any] | None, str | None]:
    """The replay plan for the rewrite's lockstep run, or why there can be none.

    Per step the original recorded, the rewrite's stepped variables (as its free run updated
    them) and where the original's paired value after that step lies.
    """
    if old.get("states") is None:
        return None, "the original's run recorded no state"
    entries = _entries(old)
    reverse = {j: i for i, j in _pairs(old, new).items()}
    steps = []
    for k, step in enumerate(new["steps"][: recorded_steps(old)], 1):
        row = []
        for g in step["grads"]:
            i = reverse.get(g["index"])
            if i is None:
                return None, f"{g['var']}, which the rewrite updates at step {k}, has no counterpart"
            entry = entries.get((k, i, "post"))
            if entry is None:
                name = old["variables"][i]["var"]
                return None, f"the original does not update {name} at step {k}, the rewrite does"
            shape = (new["variables"][g["index"]].get("value") or {}).get("shape")
            if shape is not None and list(shape) != list(entry[5]):
                return None, f"{g['var']} has shape {tuple(shape)}, its counterpart {tuple(entry[5])}"
            row.append([g["index"], g["var"], entry])
        steps.append(row)
    return {"blob": str(old_states), "steps": steps}, None


def write_plan(plan: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(plan), encoding="utf-8")
    return path


def _difference(old: np.ndarray, new: np.ndarray) -> tuple[float, int]:
    """The largest absolute difference between two tensors, and where it is.

    NaN equals NaN and an infinity the same infinity; any other non-finite difference is inf.
    """
    old, new = old.astype(np.float64).ravel(), new.astype(np.float64).ravel()
    if not old.size:
        return 0.0, 0
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(new - old)
    same = (new == old) | (np.isnan(new) & np.isnan(old))
    diff = np.where(same, 0.0, np.where(np.isfinite(diff), diff, np.inf))
    at = int(np.argmax(diff))
    return float(diff[at]), at


def _scale(array: np.ndarray) -> float:
    finite = np.abs(array[np.isfinite(array)]).astype(np.float64)
    return float(finite.max()) if finite.size else 0.0


class _Steps:
    """Both state files, read one array at a time."""

    def __init__(self, old: dict[str, Any], old_path: Path, new: dict[str, Any], new_path: Path) -> None:
        self.old, self.new = old, new
        self.paths = (str(old_path), str(new_path))
        self.entries = (_entries(old), _entries(new))

    def read(self, side: int, step: int, index: int, kind: Kind) -> np.ndarray | None:
        entry = self.entries[side].get((step, index, kind))
        return None if entry is None else read_array(self.paths[side], entry)


def compare_lockstep(
    old: dict[str, Any], old_states: Path, new: dict[str, Any], new_states: Path, rtol: float = 1.0
) -> LockstepResult:
    """Compare the original's steps with the rewrite's lockstep run (``new``), step by step;
    ``rtol`` (the user's) caps the tolerances."""
    result = LockstepResult()
    replay = new.get("replay") or {}
    recorded = min(recorded_steps(old), recorded_steps(new))
    # A step is compared from the original's state when the step before it was replayed.
    steps = min(recorded, int(replay.get("replayed", 0)) + 1, len(old["steps"]), len(new["steps"]))
    pairs = _pairs(old, new)
    reverse = {j: i for i, j in pairs.items()}
    files = _Steps(old, old_states, new, new_states)
    for k in range(1, steps + 1):
        found = _compare_step(k, files, pairs, reverse, result, rtol)
        if found is not None:
            result.divergence = found
            return result
        result.steps = k
    result.unverified = _why_not_all(old, new, steps, replay)
    truncated = (old.get("states") or {}).get("truncated_at")
    if result.unverified is None and truncated is not None:
        result.notes.append(
            f"lockstep compared optimizer steps 1-{steps} of {len(old['steps'])} (the state "
            "budget); the later ones only in the free run"
        )
    return result


def _why_not_all(old: dict[str, Any], new: dict[str, Any], steps: int, replay: dict[str, Any]) -> str | None:
    """Why lockstep did not compare every step the original took, when that is not the
    state budget (which is noted, not a reason: the free run compares those steps)."""
    lost = replay.get("lost")
    if lost is not None:
        return f"the lockstep run of the rewrite could not follow the original: {lost['why']}"
    if len(new["steps"]) != len(old["steps"]):
        return (f"in lockstep the rewrite takes {len(new['steps'])} optimizer steps, the original "
                f"{len(old['steps'])}")
    if steps < len(old["steps"]) and (old.get("states") or {}).get("truncated_at") is None:
        return f"the lockstep run compared {steps} of {len(old['steps'])} optimizer steps"
    return None


_WHAT = {"pre": "value before the step", "grad": "gradient", "post": "update"}


def _compare_step(
    k: int,
    files: _Steps,
    pairs: dict[int, int],
    reverse: dict[int, int],
    result: LockstepResult,
    rtol: float,
) -> Divergence | None:
    """The first value of step ``k`` that differs in lockstep: a variable one side updates and
    the other does not, then per variable its starting value, gradient and update."""
    old_step, new_step = files.old["steps"][k - 1], files.new["steps"][k - 1]
    old_vars, new_vars = files.old["variables"], files.new["variables"]
    where = f"; update applied at original line {old_step.get('line')}, rewrite line {new_step.get('line')}"
    new_indices = {g["index"] for g in new_step["grads"]}
    for g in new_step["grads"]:
        if reverse.get(g["index"]) not in {h["index"] for h in old_step["grads"]}:
            return Divergence("gradient", k, g["var"], None, None, None, new_vars[g["index"]]["line"],
                              f"in lockstep the rewrite also updates {g['var']} at this step{where}")
    arrays: dict[tuple[int, Kind], tuple[np.ndarray, np.ndarray]] = {}
    for g in old_step["grads"]:
        i, j = g["index"], pairs.get(g["index"])
        lines = (old_vars[i]["line"], new_vars[j]["line"] if j is not None else None)
        if j not in new_indices:
            return Divergence("gradient", k, g["var"], None, None, *lines,
                              f"in lockstep the rewrite applies no update to {g['var']} at this step{where}")
        for kind in ("pre", "grad", "post"):
            a, b = files.read(0, k, i, kind), files.read(1, k, j, kind)
            if (a is None) != (b is None):
                return Divergence("gradient", k, g["var"], None, None, *lines,
                                  f"in lockstep one side has no gradient for {g['var']}{where}")
            if a is not None and b is not None:
                arrays[(i, kind)] = (a, b)
    for i, kind in list(arrays):
        if kind == "post":  # the update: what the step changed
            (post_a, post_b), (pre_a, pre_b) = arrays[(i, "post")], arrays[(i, "pre")]
            arrays[(i, "post")] = (post_a - pre_a, post_b - pre_b)
    step_scale = {kind: 0.0 for kind in RTOL}
    for (_, kind), (a, _) in arrays.items():
        step_scale[kind] = max(step_scale[kind], _scale(a))
    order = {"pre": 0, "grad": 1, "post": 2}  # a changed start explains the rest of its step
    for (i, kind), (a, b) in sorted(arrays.items(), key=lambda item: order[item[0][1]]):
        floor = TINY + STEP_FLOOR * step_scale[kind]
        scale = _scale(a)
        if kind == "post":  # known to a few roundings of the variable; judged on the step's scale
            floor += UPDATE_ULPS * _scale(arrays[(i, "pre")][0])
            scale = step_scale[kind]
        diff, at = _difference(a, b)
        if diff <= floor + min(RTOL[kind], rtol) * scale:
            if scale > 0:
                result.max_rel[kind] = max(result.max_rel[kind], diff / scale)
            continue
        rel = diff / scale if scale > 0 else np.inf
        name = old_vars[i]["var"]
        j = pairs[i]
        element = tuple(int(x) for x in np.unravel_index(at, a.shape)) if a.shape else ()
        observable = {"pre": "variable", "grad": "gradient", "post": "update"}[kind]
        detail = (f"in lockstep (both from the original's state before step {k}), "
                  f"{_WHAT[kind]} of {name}: element {element} of shape {a.shape}; "
                  f"differs by {rel:.3g} of its scale{where}")
        return Divergence(observable, k, name, float(a.flat[at]), float(b.flat[at]),
                          old_vars[i]["line"], new_vars[j]["line"], detail)
    return None
