"""Compare what two runs let the world see, and find the first divergence.

Observables, compared with ``|new - old| <= atol + rtol * scale``. A number's
scale is its own magnitude; a tensor element's is the largest magnitude of the
observable it belongs to, because values that pass near zero have no meaningful
relative error and a correct rewrite's drift does not shrink with them:

- an array printed in brackets, a variable's value before its first update:
  the tensor's largest magnitude;
- a gradient: the largest magnitude any gradient of the variables its step
  updates (one gradient vector) has had in this and earlier steps. A gradient
  shrinks as training converges, while its error (parameter drift times
  curvature) does not: on the ``mlp_adam`` golden a
  correct Keras Adam rewrite (TF1 multiplies float32 beta powers step by step,
  Keras 3 computes ``pow(beta, t)``) is 3e-6 off on gradients of scale 0.01 by
  step 12, 2e-4 of the step's scale and 1e-5 of the gradients' scale so far;
- a final value: the largest magnitude among the variables an optimizer step
  updates with it (one parameter vector: Adam's drift spreads over all of it,
  ~1e-5 of its scale, so a bias that ends near zero drifts like the kernel).
  The reference report measures optimizer drift the same way (max diff / max|param|).

Two correct float32 programs that round differently drift apart as training
compounds their rounding, so ``rtol`` widens with the optimizer steps taken
before a value was computed: by ``sqrt(steps / 10)`` past step 10, at most 5x
(see ``drift_factor``). On the ``contrib_layers_l2`` golden a correct Keras Adam
rewrite is 4e-6 of the gradients' scale at step 2, 1e-5 at step 100 and 2.6e-4
at step 200; real TF's own compat.v1 and TF2 runs of it drift the same way.
Mistakes show at once: the weakest real one measured, Keras Adam's default
epsilon instead of TF1's 1e-8, is ~7e-3 off from step 1, and a 1e-3 relative
change of a gradient or of the parameters is found at any step
(``tests/verify/test_compare.py``).

- printed output, as a token stream: numbers compared with the tolerance, words
  exactly (whitespace is not a token: numpy pads arrays differently when a
  value's width changes);
- summaries: each TensorBoard tag's series of (step, value), as TensorBoard plots it;
  a value is judged against the largest magnitude of its series so far;
- checkpoints: the values each save writes of every paired variable, a model variable the
  rewrite's save leaves out, and how many saves each program makes;
- updates: the gradient for each variable at every optimizer step;
- final state: every variable's value at exit;
- exit status and exception type.

Variables are paired by name, or by name once one side's leading scope is
dropped (a Keras weight ``model/dense1/weight`` against the TF1 ``dense1/weight``);
names that still do not match fall back to creation order and shape among the
*model's* variables (those an optimizer updates, or, in a program that never
steps, the trainable ones), then among the rest of the program's variables.
Optimizer state (Adam moments, ``beta1_power``, Keras ``iterations``...) has no
counterpart on the other side by design and is not traced. A model variable
without a counterpart is a difference; any other variable without one (a
counter, a moving average) makes the verdict *unverified*: its values were
never compared.

"First divergence" means first in the original program's order: the trace
records how much stdout had been written when each variable was created and
each step ran, so a printed difference and an update difference can be ordered.
When one run crashes, a divergence before the crash is still the first; what the
crash cut short (output, steps, final values) is not: the exit is reported, with
the exception and the line that raised it.

The tolerance and what a comparison reports are in ``runtime.observables``, printed output
in ``runtime.printed_output``, the pairing of variables in ``runtime.variable_pairs``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from runtime.observables import Candidate, Comparison, Divergence, Stats, Tolerance
from runtime.printed_output import compare_stdout, with_reprints
from runtime.sandbox import RunResult
from runtime.update_rules import rule_difference
from runtime.variable_pairs import first_steps, model_variables, pair_variables, shape_of

# ------------------------------------------------------------------------------- summaries


def compare_summaries(
    old: list[dict[str, Any]], new: list[dict[str, Any]], tol: Tolerance, stats: Stats
) -> list[Candidate]:
    """The first difference in each tag's series: a value logged at another step, a value that
    differs, a series cut short or extended, a series only one side writes.

    Series pair by tag, then the rest by order of first appearance: TF1 names a tag after its
    summary op's name scope, uniquified (``loss_1`` once a ``loss`` scope exists), the rewrite
    after the name it was given.
    """
    old_series, new_series = _by_tag(old), _by_tag(new)
    rest_new = [tag for tag in new_series if tag not in old_series]
    candidates = []
    for tag, events in old_series.items():
        partner = tag if tag in new_series else (rest_new.pop(0) if rest_new else None)
        partner_events = new_series[partner] if partner is not None else []
        found = _first_summary_difference(tag, events, partner_events, tol, stats)
        if found is not None:
            candidates.append(found)
    for tag in rest_new:
        first = new_series[tag][0]
        divergence = Divergence(
            "summary",
            first["steps"],
            tag,
            None,
            _brief(first["value"]),
            None,
            first["line"],
            f"the rewrite writes summary {tag!r}, which the original does not",
        )
        candidates.append(Candidate(divergence, None, 2, ended=True))
    return candidates


def _by_tag(events: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    series: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        series.setdefault(event["tag"], []).append(event)
    return series


def _first_summary_difference(
    tag: str,
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    tol: Tolerance,
    stats: Stats,
) -> Candidate | None:
    scale = 0.0  # the series' largest magnitude so far: a loss curve drifts like a gradient
    for k, (a, b) in enumerate(zip(old, new)):
        if a["value"]["values"] and not isinstance(a["value"]["values"][0], str):
            scale = max(scale, _tensor_scale(a["value"], np.asarray(a["value"]["values"])))
        if a["step"] != b["step"]:
            detail = f"summary {tag!r} value {k + 1} written at step {a['step']} vs {b['step']}"
            old_value, new_value = a["step"], b["step"]
        else:
            mismatch = compare_records(a["value"], b["value"], tol, stats, scale, a["steps"])
            if mismatch is None:
                continue
            what, old_value, new_value = mismatch
            detail = f"summary {tag!r} at step {a['step']}: {what}"
        divergence = Divergence(
            "summary", a["steps"], tag, old_value, new_value, a["line"], b["line"], detail
        )
        return Candidate(divergence, a["stdout_offset"], 2)
    return _count_mismatch(
        "summary", tag, old, new,
        f"the original writes {len(old)} values of summary {tag!r}, the rewrite {len(new)}",
    )


def _count_mismatch(kind: str, name: str | None, old: list, new: list, detail: str) -> Candidate | None:
    """A series one side writes more records of: found at the first record the other lacks."""
    if len(old) == len(new):
        return None
    k = min(len(old), len(new))
    extra = old[k] if len(old) > k else new[k]
    divergence = Divergence(
        kind, extra["steps"], name, len(old), len(new),
        extra["line"] if len(old) > k else None, extra["line"] if len(new) > k else None, detail,
    )
    return Candidate(divergence, extra["stdout_offset"] if len(old) > k else None, 2, ended=True)


def compare_records(
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    tol: Tolerance,
    stats: Stats,
    scale_floor: float = 0.0,
    steps: int = 0,
) -> tuple[str, Any, Any] | None:
    """None if two recorded tensors match, else (what differs, old value, new value).

    Elements are judged against the tensor's largest magnitude, or ``scale_floor``
    if that is larger (a gradient's largest magnitude in earlier steps), with the
    allowance for ``steps`` optimizer steps of drift.
    """
    if old is None or new is None:
        if old is None and new is None:
            return None
        return ("no gradient on one side", _brief(old), _brief(new))
    if old["shape"] != new["shape"]:
        return (f"shape {tuple(old['shape'])} vs {tuple(new['shape'])}", old["shape"], new["shape"])
    old_values, new_values = old["values"], new["values"]
    if any(isinstance(values[0], str) for values in (old_values, new_values) if values):
        if old_values != new_values:
            return ("values differ", old_values[:8], new_values[:8])
        return None
    a = np.asarray(old_values, np.float64)
    b = np.asarray(new_values, np.float64)
    scale = max(_tensor_scale(old, a), scale_floor)
    close = tol.close(b, a, scale, steps)
    if _integral(old) and _integral(new):  # a step counter or an index: exact, like printed ints
        close &= a == b
    if not close.all():
        i = int(np.argmin(close))
        flat = old["positions"][i] if "positions" in old else i
        where = tuple(int(x) for x in np.unravel_index(flat, old["shape"])) if old["shape"] else ()
        stats_local = Stats()
        stats_local.add(b, a, scale)
        detail = (
            f"element {where} of shape {tuple(old['shape'])}; max |diff| {stats_local.max_abs:.3g}"
        )
        return (detail, float(a[i]), float(b[i]))
    stats.add(b, a, scale)
    size = math.prod(old["shape"])
    # the norms of a tensor whose every element has the floor's magnitude
    floors = {"l1": size * scale_floor, "l2": math.sqrt(size) * scale_floor, "max_abs": scale_floor}
    for norm, floor in floors.items():
        if norm not in old:
            continue
        a_norm, b_norm = np.float64(old[norm]), np.float64(new[norm])
        if not tol.close(b_norm, a_norm, max(abs(a_norm), floor), steps):
            return (f"{norm} norm differs (shape {tuple(old['shape'])})", old[norm], new[norm])
    return None


def _integral(record: dict[str, Any]) -> bool:
    """Is the recorded tensor of an integer or boolean dtype?"""
    return str(record.get("dtype", "")).startswith(("int", "uint", "bool"))


def _tensor_scale(record: dict[str, Any], values: np.ndarray) -> float:
    """The largest finite magnitude in a tensor (its digest knows it for large ones)."""
    if "max_abs" in record and math.isfinite(record["max_abs"]):
        return float(record["max_abs"])
    finite = np.abs(values[np.isfinite(values)])
    return float(finite.max()) if finite.size else 0.0


def _brief(record: dict[str, Any] | None) -> Any:
    if record is None:
        return None
    values = record["values"]
    return values[0] if record["shape"] == [] else values[:8]


def compare_traces(
    old: dict[str, Any],
    new: dict[str, Any],
    tol: Tolerance,
    stats: Stats,
    notes: list[str],
    uncompared: list[str],
) -> tuple[list[Candidate], int]:
    """Divergences in variables, updates and final state; and the number of steps compared.

    State outside the model that pairs with nothing on the other side goes to ``uncompared``:
    a counter the rewrite renamed and updates wrongly would otherwise pass unseen."""
    old_vars, new_vars = old["variables"], new["variables"]
    old_model, new_model = model_variables(old), model_variables(new)
    pairs = pair_variables(old_vars, new_vars, old_model, new_model, first_steps(old), first_steps(new))
    reverse = {j: i for i, j in pairs.items()}
    candidates: list[Candidate] = []

    def lines(i: int | None, j: int | None) -> tuple[int | None, int | None]:
        return (
            old_vars[i]["line"] if i is not None else None,
            new_vars[j]["line"] if j is not None else None,
        )

    def called_from(i: int | None, j: int | None) -> str:
        """Where the creating code was called from: the call that decided a layer's shapes."""
        callers = [
            f"{side} line {entry['callers'][0]}"
            for side, entry in (
                ("original", old_vars[i] if i is not None else None),
                ("rewrite", new_vars[j] if j is not None else None),
            )
            if entry is not None and entry.get("callers")
        ]
        return f"; created by the call at {', '.join(callers)}" if callers else ""

    # Structure: model variables without a counterpart, paired variables of other shapes.
    new_in_model = [v for v in new_vars if v["index"] in new_model]
    old_in_model = [v for v in old_vars if v["index"] in old_model]
    for position, v in enumerate(old_in_model):
        if v["index"] in pairs:
            continue
        j = new_in_model[position]["index"] if position < len(new_in_model) else None
        detail = f"{v['var']} (shape {shape_of(v)}) has no counterpart in the rewrite"
        if j is not None:
            other = new_vars[j]
            detail += f"; by creation order it would be {other['var']} (shape {shape_of(other)})"
        detail += called_from(v["index"], j)
        candidates.append(
            Candidate(
                Divergence(
                    "variable", None, v["var"], shape_of(v), None, *lines(v["index"], j), detail
                ),
                v.get("stdout_offset"),
                0,
                ended=True,
            )
        )
    for v in new_in_model:
        if v["index"] not in reverse:
            detail = (
                f"the rewrite creates {v['var']} (shape {shape_of(v)}), which the original has not"
                + called_from(None, v["index"])
            )
            candidates.append(
                Candidate(
                    Divergence(
                        "variable", None, v["var"], None, shape_of(v), None, v["line"], detail
                    ),
                    None,
                    0,
                    ended=True,
                )
            )
    uncompared.extend(
        f"the {side}'s {v['var']} (shape {shape_of(v)}, line {v['line']}) has no counterpart"
        for side, variables, paired, model in (
            ("original", old_vars, pairs, old_model),
            ("rewrite", new_vars, reverse, new_model),
        )
        for v in variables
        if v["index"] not in paired and v["index"] not in model
    )

    # Starting values: a changed initializer shows here before it shows in a gradient.
    old_steps, new_steps = old["steps"], new["steps"]
    first_step: dict[int, int] = {}
    for k, step in enumerate(old_steps):
        for g in step["grads"]:
            first_step.setdefault(g["index"], k)
    for i, j in pairs.items():
        old_start, new_start = old_vars[i].get("initial"), new_vars[j].get("initial")
        if old_start is None or new_start is None:
            continue
        mismatch = compare_records(old_start, new_start, tol, stats)
        if mismatch is not None:
            what, a, b = mismatch
            k = first_step.get(i)
            candidates.append(
                Candidate(
                    Divergence(
                        "variable",
                        None if k is None else k + 1,
                        old_vars[i]["var"],
                        a,
                        b,
                        *lines(i, j),
                        f"value before its first update: {what}",
                    ),
                    None if k is None else old_steps[k].get("stdout_offset"),
                    0,
                )
            )

    # Updates, step by step.
    steps_compared = min(len(old_steps), len(new_steps))
    grad_scales: dict[int, float] = {}
    for k in range(steps_compared):
        found = _compare_step(
            k,
            old_steps[k],
            new_steps[k],
            pairs,
            reverse,
            old_vars,
            new_vars,
            tol,
            stats,
            grad_scales,
        )
        if found is not None:
            lines_of_step = (old_steps[k].get("line"), new_steps[k].get("line"))
            if lines_of_step != (None, None):
                found.detail += (
                    f"; update applied at original line {lines_of_step[0]},"
                    f" rewrite line {lines_of_step[1]}"
                )
            candidates.append(Candidate(found, old_steps[k].get("stdout_offset"), 1))
            steps_compared = k
            break
    else:
        if len(old_steps) != len(new_steps):
            # The side with more steps names the line that applied the first one the other lacks.
            longer, extra = max(
                ("original", old_steps), ("rewrite", new_steps), key=lambda s: len(s[1])
            )
            extra_line = extra[steps_compared].get("line")
            detail = (
                f"the original makes {len(old_steps)} optimizer steps, the rewrite {len(new_steps)}"
            )
            if extra_line is not None:
                detail += f"; step {steps_compared + 1} applied at {longer} line {extra_line}"
            position = (
                old_steps[steps_compared].get("stdout_offset")
                if len(old_steps) > steps_compared
                else None
            )
            candidates.append(
                Candidate(
                    Divergence(
                        "gradient",
                        steps_compared + 1,
                        None,
                        len(old_steps),
                        len(new_steps),
                        extra_line if longer == "original" else None,
                        extra_line if longer == "rewrite" else None,
                        detail,
                    ),
                    position,
                    1,
                    ended=True,
                )
            )
        elif old.get("stopped_early") != new.get("stopped_early"):
            stopped, ended = (
                ("original", "rewrite") if old.get("stopped_early") else ("rewrite", "original")
            )
            detail = (
                f"the {ended} ends after {len(old_steps)} optimizer steps; the {stopped} "
                "goes on and was stopped at the step budget"
            )
            candidates.append(
                Candidate(
                    Divergence(
                        "gradient", steps_compared + 1, None, None, None, None, None, detail
                    ),
                    None,
                    1,
                    ended=True,
                )
            )

    # Final state of every paired variable, against the scale of the variables updated with it.
    parameter_scales = _parameter_scales(old_vars, old_steps)
    for i, j in pairs.items():
        old_value, new_value = old_vars[i]["value"], new_vars[j]["value"]
        if old_value is None or new_value is None:
            notes.append(f"final value of {old_vars[i]['var']} unreadable; not compared")
            continue
        mismatch = compare_records(
            old_value, new_value, tol, stats, parameter_scales.get(i, 0.0), len(old_steps)
        )
        stats.variables += 1
        if mismatch is None:
            continue
        what, a, b = mismatch
        shape_change = old_value["shape"] != new_value["shape"]
        detail = what + called_from(i, j) if shape_change else f"final value: {what}"
        divergence = Divergence("variable", None, old_vars[i]["var"], a, b, *lines(i, j), detail)
        if shape_change:  # decided at creation, by the call that built the variable
            candidates.append(Candidate(divergence, old_vars[i].get("stdout_offset"), 0))
        else:  # a crash on one side cuts final values short and explains them
            candidates.append(Candidate(divergence, None, 3, ended=True))
    found = _compare_checkpoints(
        old.get("checkpoints", []),
        new.get("checkpoints", []),
        pairs,
        old_vars,
        old_model,
        tol,
        stats,
    )
    if found is not None:
        candidates.append(found)
    return candidates, steps_compared


def _compare_checkpoints(
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    pairs: dict[int, int],
    old_vars: list[dict[str, Any]],
    old_model: set[int],
    tol: Tolerance,
    stats: Stats,
) -> Candidate | None:
    """The first save that differs: a paired variable saved with another value, or a model
    variable the original saves and the rewrite's save leaves out; else a missing save.

    Optimizer state and variables only one side has are left out, as in the final state:
    TF1's Saver saves every global variable, a rewrite's Checkpoint names what it saves.
    """
    for k, (a, b) in enumerate(zip(old, new)):
        new_saved = {entry["index"]: entry["value"] for entry in b["saved"]}
        for entry in a["saved"]:
            i = entry["index"]
            j = pairs.get(i)
            if j is None:
                continue
            name = old_vars[i]["var"]
            if j not in new_saved:
                if i not in old_model:
                    continue
                detail = f"checkpoint {k + 1} of the rewrite does not save {name}"
                old_value, new_value = _brief(entry["value"]), None
            else:
                mismatch = compare_records(
                    entry["value"], new_saved[j], tol, stats, 0.0, a["steps"]
                )
                if mismatch is None:
                    continue
                what, old_value, new_value = mismatch
                detail = f"value of {name} saved in checkpoint {k + 1}: {what}"
            divergence = Divergence(
                "checkpoint", a["steps"], name, old_value, new_value, a["line"], b["line"], detail
            )
            return Candidate(divergence, a["stdout_offset"], 2)
    return _count_mismatch(
        "checkpoint", None, old, new, f"the original saves {len(old)} checkpoints, the rewrite {len(new)}"
    )


def _parameter_scales(
    variables: list[dict[str, Any]], steps: list[dict[str, Any]]
) -> dict[int, float]:
    """Per stepped variable: the largest final magnitude among the variables updated with it.

    The variables one optimizer step updates are one parameter vector; a correct
    rewrite's drift (Adam's beta powers) is spread over all of it, so a bias that
    ends near zero is judged like a kernel element that ends near zero.
    """
    scales: dict[int, float] = {}
    for members in {frozenset(g["index"] for g in step["grads"]) for step in steps}:
        records = [variables[i]["value"] for i in members if variables[i]["value"] is not None]
        numeric = [r for r in records if r["values"] and not isinstance(r["values"][0], str)]
        scale = max(
            (_tensor_scale(r, np.asarray(r["values"], np.float64)) for r in numeric), default=0.0
        )
        for i in members:
            scales[i] = max(scales.get(i, 0.0), scale)
    return scales


def _compare_step(
    k: int,
    old_step: dict[str, Any],
    new_step: dict[str, Any],
    pairs: dict[int, int],
    reverse: dict[int, int],
    old_vars: list[dict[str, Any]],
    new_vars: list[dict[str, Any]],
    tol: Tolerance,
    stats: Stats,
    grad_scales: dict[int, float],
) -> Divergence | None:
    """The first difference in one step's updates.

    ``grad_scales`` holds, per original variable, the largest gradient magnitude
    of the steps so far; this step's gradients update it, and each is judged
    against the largest among the variables this step updates (one gradient
    vector, like the final values' parameter vector).
    """
    new_by_index = {g["index"]: g for g in new_step["grads"]}
    old_by_index = {g["index"]: g for g in old_step["grads"]}
    changed = rule_difference(old_step.get("rule"), new_step.get("rule"))
    if changed is not None:
        what, a, b = changed
        names = ", ".join(g["var"] for g in old_step["grads"])
        return Divergence("optimizer", k + 1, names, a, b, old_step.get("line"), new_step.get("line"),
                          f"the update of {names} is configured otherwise: {what}")
    for g in old_step["grads"]:
        if g["grad"] is not None:
            values = np.asarray(g["grad"]["values"], np.float64)
            i = g["index"]
            grad_scales[i] = max(grad_scales.get(i, 0.0), _tensor_scale(g["grad"], values))
    step_scale = max((grad_scales.get(g["index"], 0.0) for g in old_step["grads"]), default=0.0)
    for g in old_step["grads"]:
        i = g["index"]
        j = pairs.get(i)
        partner = new_by_index.get(j) if j is not None else None
        old_line = old_vars[i]["line"]
        if partner is None:
            return Divergence(
                "gradient",
                k + 1,
                g["var"],
                _brief(g["grad"]),
                None,
                old_line,
                new_vars[j]["line"] if j is not None else None,
                f"the rewrite applies no update to {g['var']} at this step",
            )
        mismatch = compare_records(g["grad"], partner["grad"], tol, stats, step_scale, steps=k)
        if mismatch is not None:
            what, a, b = mismatch
            return Divergence(
                "gradient",
                k + 1,
                g["var"],
                a,
                b,
                old_line,
                new_vars[j]["line"],
                f"gradient of {g['var']}: {what}",
            )
    for g in new_step["grads"]:
        if reverse.get(g["index"]) not in old_by_index:
            return Divergence(
                "gradient",
                k + 1,
                g["var"],
                None,
                _brief(g["grad"]),
                None,
                new_vars[g["index"]]["line"],
                f"the rewrite also updates {g['var']} at this step",
            )
    return None


# ----------------------------------------------------------------------------- exit status


def failure(run: RunResult) -> str | None:
    """How a run failed: its exception type, or its exit status; None if it succeeded."""
    if run.exception:
        return run.exception
    return None if run.exit_code == 0 else f"exit status {run.exit_code}"


def _describe_end(run: RunResult) -> str:
    if run.exception:
        message = f": {run.exception_message}" if run.exception_message else ""
        return f"{run.exception}{message}"
    return f"exit status {run.exit_code}"


def compare_runs(
    old: RunResult, new: RunResult, tol: Tolerance, reprinted: frozenset[int] = frozenset()
) -> Comparison:
    """Compare two completed runs; the divergence is the first in the original's order.

    ``reprinted``: lines of the original whose printed text changes by design (see
    ``with_reprints``)."""
    stats = Stats()
    notes: list[str] = []
    candidates: list[Candidate] = []
    uncompared: list[str] = []
    steps_compared = 0
    if old.trace is not None and new.trace is not None:
        found, steps_compared = compare_traces(old.trace, new.trace, tol, stats, notes, uncompared)
        candidates += found
        candidates += compare_summaries(
            old.trace.get("summaries", []), new.trace.get("summaries", []), tol, stats
        )
        step_offsets = [s.get("stdout_offset") for s in old.trace["steps"]]
    else:
        step_offsets = []
        missing = [side for side, run in (("original", old), ("rewrite", new)) if run.trace is None]
        notes.append(f"no trace from the {' or the '.join(missing)}: only output and exit compared")
    prints = tuple(run.trace.get("prints", []) if run.trace else [] for run in (old, new))
    new_stdout, skipped = with_reprints(old.stdout, new.stdout, prints, reprinted)
    if skipped:
        notes.append(
            f"{skipped} print(s) that TF2 shows as values, not graph reprs, were not compared"
        )
    # Values computed from states that never parted get no allowance for drift: a mistake in
    # what only an evaluation computes would otherwise pass inside it.
    drifted = bool(candidates) or stats.max_abs > 0.0
    stdout = compare_stdout(old.stdout, new_stdout, tol, stats, step_offsets, prints, drifted)
    if stdout is not None:
        candidates.append(stdout)
    if failure(old) != failure(new):
        exit_divergence = Divergence(
            "exit",
            None,
            None,
            _describe_end(old),
            _describe_end(new),
            old.exception_line,
            new.exception_line,
            f"the original ends with {_describe_end(old)}, the rewrite with {_describe_end(new)}",
        )
        # A stream that stops short is explained by how its run ended.
        candidates = [c for c in candidates if not c.ended]
        candidates.append(Candidate(exit_divergence, None, 4))
    first = _first(candidates)
    return Comparison(
        first,
        steps_compared,
        stats.max_abs,
        stats.max_rel,
        stats.variables,
        stats.printed_numbers,
        notes,
        uncompared,
    )


def _first(candidates: list[Candidate]) -> Divergence | None:
    if not candidates:
        return None
    if all(c.position is not None for c in candidates if c.rank < 3):
        key = lambda c: (c.position if c.position is not None else math.inf, c.rank)
    else:
        key = lambda c: (c.rank,)
    return min(candidates, key=key).divergence
