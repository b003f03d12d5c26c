"""Which program lines compute the first values that differ: one per independent mistake.

The trace's observables show where two programs first differ, not every reason
why: a dropped activation early in a model and a layer fed the wrong tensor
later show in the same printed output, and only the first is reported. A second
run of each program records the values its ops compute (``trace.ValueLog``),
with the program line that made each op and the values it was computed from.

A value one program computes and the other never does (no value of the same
shape within tolerance) is where a difference *starts* when

- every recorded value it was computed from exists on both sides (otherwise it
  is a consequence of an earlier difference, not a new one);
- it is the program's own computation, not a gradient or an update: TF1 and TF2
  differentiate through different intermediate ops;
- nothing computed from it exists on both sides: a correct rewrite may compute
  a loss through other intermediates (softmax, then log) than its original (one
  fused op), but the loss agrees again. The rewrite's values must also be used:
  a tf.function's unused ops run when values are recorded.

Its line, and the line where the other program computed those same inputs, name
one mistake. When both programs start to differ from one shared value (the
original multiplies a weight by one tensor, the rewrite by another), that is one
mistake with a line on each side.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime.observables import Divergence, Tolerance

Record = dict[str, Any]  # one ``trace.ValueLog`` record


def _key(record: Record) -> tuple[tuple[int, ...], int]:
    value = record["value"]
    return tuple(value["shape"]), len(value["values"])


def _matches(records: list[Record], others: list[Record], tol: Tolerance) -> list[int | None]:
    """For each record, a record of ``others`` holding the same value, if any.

    Elements are judged against the value's largest magnitude, as in ``runtime.compare``.
    Of equal values (a matmul and the sum with a zero bias), one of the same op is the twin.
    """
    groups: dict[tuple[tuple[int, ...], int], list[int]] = {}
    for j, other in enumerate(others):
        groups.setdefault(_key(other), []).append(j)
    stacked = {
        key: (indices, np.array([others[j]["value"]["values"] for j in indices], np.float64))
        for key, indices in groups.items()
    }
    found: list[int | None] = []
    for record in records:
        group = stacked.get(_key(record))
        if group is None:
            found.append(None)
            continue
        indices, values = group
        a = np.asarray(record["value"]["values"], np.float64)
        finite = np.abs(a[np.isfinite(a)])
        scale = float(finite.max()) if finite.size else 0.0
        rows = tol.close(values, a, scale).reshape(len(indices), -1).all(axis=1)
        hits = [indices[int(k)] for k in np.flatnonzero(rows)]
        same_op = [j for j in hits if others[j]["op"] == record["op"]]
        found.append((same_op or hits or [None])[0])
    return found


def _same(a: Record, b: Record, tol: Tolerance) -> bool:
    return _matches([a], [b], tol)[0] is not None


def _users(records: list[Record]) -> list[list[int]]:
    users: list[list[int]] = [[] for _ in records]
    for i, record in enumerate(records):
        for k in _inputs(record):
            users[k].append(i)
    return users


def _inputs(record: Record) -> list[int]:
    return [k for k in record["inputs"] if k >= 0]


def _starts(
    side: tuple[list[Record], list[int | None]],
    other: tuple[list[Record], list[int | None]],
    sinks_count: bool,
) -> list[int]:
    """Indices of the values where this side starts to differ (see the module docstring).

    A value is no start when the other side consumes the same inputs together with
    a constant or variable of its own that differs: that difference is reported as
    a variable (a bias initialized otherwise), and ``x + 0`` equals ``x`` here.
    """
    records, twin = side
    others, other_twin = other
    users, other_users = _users(records), _users(others)

    def differs_by_a_source(t: int) -> bool:
        return any(
            other_twin[m] is None
            and any(other_twin[s] is None and not _inputs(others[s]) for s in _inputs(others[m]))
            for m in other_users[t]
        )

    starts = []
    for i, record in enumerate(records):
        inputs = _inputs(record)
        if record.get("derived") or twin[i] is not None or not inputs:
            continue
        if any(twin[k] is None for k in inputs):
            continue
        if any(differs_by_a_source(twin[k]) for k in inputs):  # type: ignore[arg-type]
            continue
        downstream = _forward_descendants(i, records, users)
        if any(twin[k] is not None for k in downstream):
            continue
        if downstream or sinks_count:
            starts.append(i)
    return starts


def _forward_descendants(i: int, records: list[Record], users: list[list[int]]) -> set[int]:
    """Values computed from value ``i``, gradients and updates left out."""
    seen: set[int] = set()
    stack = list(users[i])
    while stack:
        k = stack.pop()
        if k in seen or records[k].get("derived"):
            continue
        seen.add(k)
        stack.extend(users[k])
    return seen


def _where(side: str, record: Record) -> str:
    callers = record.get("callers") or []
    called = f", called from line {callers[0]}" if callers else ""
    return f"{record['op']} at {side} line {record['line']}{called}"


def first_differences(old: list[Record], new: list[Record], tol: Tolerance) -> list[Divergence]:
    """Where values start to differ, one per pair of source lines, in the original's order."""
    old_twin, new_twin = _matches(old, new, tol), _matches(new, old, tol)
    old_starts = _starts((old, old_twin), (new, new_twin), sinks_count=True)
    new_starts = _starts((new, new_twin), (old, old_twin), sinks_count=True)
    # Unused values of the rewrite count only as the other side of an original's start.
    new_used = set(_starts((new, new_twin), (old, old_twin), sinks_count=False))

    def share_an_input(i: int, j: int) -> bool:
        return any(
            _same(old[k], new[m], tol)
            for k in old[i]["inputs"]
            for m in new[j]["inputs"]
            if k >= 0 and m >= 0
        )

    found: list[tuple[int, Divergence]] = []
    paired: set[int] = set()
    for i in old_starts:
        inputs = _inputs(old[i])
        j = next((j for j in new_starts if j not in paired and share_an_input(i, j)), None)
        if j is not None:
            paired.add(j)
            detail = (
                f"from the same values, the original computes {_where('original', old[i])}"
                f" and the rewrite {_where('rewrite', new[j])}; neither value is in the other"
            )
            found.append((i, _divergence(old[i], new[j], detail)))
            continue
        twin = new[old_twin[max(inputs)]]  # type: ignore[index]
        detail = (
            f"the original's {_where('original', old[i])} computes a value the rewrite never"
            f" does, from values the rewrite has ({_where('rewrite', twin)})"
        )
        found.append((i, _divergence(old[i], twin, detail, new_value=None)))
    for j in new_starts:
        if j in paired or j not in new_used:
            continue
        inputs = _inputs(new[j])
        last = new_twin[max(inputs)]
        twin = old[last]  # type: ignore[index]
        detail = (
            f"the rewrite's {_where('rewrite', new[j])} computes a value the original never"
            f" does, from values the original has ({_where('original', twin)})"
        )
        found.append((last, _divergence(twin, new[j], detail, old_value=None)))  # type: ignore[arg-type]
    found.sort(key=lambda item: item[0])
    seen: set[tuple[int | None, int | None]] = set()
    result = []
    for _, divergence in found:
        lines = (divergence.old_line, divergence.new_line)
        if lines not in seen:
            seen.add(lines)
            result.append(divergence)
    return result


_SHAPE = object()


def _divergence(
    old: Record, new: Record, detail: str, *, old_value: Any = _SHAPE, new_value: Any = _SHAPE
) -> Divergence:
    """A ``value`` divergence between two records; values shown as shapes (None: no value)."""
    shapes = [
        tuple(record["value"]["shape"]) if given is _SHAPE else given
        for record, given in ((old, old_value), (new, new_value))
    ]
    return Divergence("value", None, None, *shapes, old["line"], new["line"], detail)
