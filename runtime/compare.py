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
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from runtime.printed_reprs import incomparable
from runtime.sandbox import RunResult
from runtime.update_rules import rule_difference


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


class _Stats:
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


# ---------------------------------------------------------------------------- printed output


@dataclass(slots=True)
class Token:
    text: str
    value: float | None  # None for a word
    start: int  # character offset in the output
    scale: float | None = None  # for a number inside [...]: the largest magnitude there


_TOKEN = re.compile(
    # an object's memory address in its repr (`<X object at 0x7f3a...>`): a new one every run,
    # compared as one word (other hex numbers are values and stay compared)
    r"(?P<address>(?<=\bat )0x[0-9a-fA-F]{6,}(?=>))"
    # nan/inf not inside a word ("information" is a word)
    r"|(?P<special>(?<![\w.])[-+]?(?i:nan|inf(?:inity)?)(?!\w))"
    # identifiers, dotted (np.float32) and with a tensor output index (Mul_1:0)
    r"|(?P<word>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?::\d+(?![\d.]))?)"
    # a sign belongs to the number unless it follows a value ("2-1" is 2, -, 1)
    r"|(?P<number>(?:(?<![\w)\]])[-+])?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)"
    r"|(?P<other>\S)"
)


def tokenize(text: str) -> list[Token]:
    """Split printed output into numbers and words; whitespace separates, it is not a token.

    A printed array (numbers inside top-level brackets) is a tensor: its numbers
    get the array's largest magnitude as their scale, as tensors in the trace do.
    A printed Python list (commas between its items, not NumPy's ``array([...])``) holds
    separate values: a number that is an item of it keeps its own magnitude, and the
    arrays among its items share a scale only with each other.
    """
    tokens = []
    for match in _TOKEN.finditer(text):
        kind, value = match.lastgroup, match.group()
        number = float(value) if kind in ("special", "number") else None
        tokens.append(Token("0x<address>" if kind == "address" else value, number, match.start()))
    depth, items, nested = 0, [], []  # the top-level group's own numbers, and deeper ones
    python_list = separated = False
    for i, token in enumerate(tokens):
        if token.text == "[":
            depth += 1
            if depth == 1:
                python_list = not (i >= 2 and tokens[i - 1].text == "(" and tokens[i - 2].text == "array")
                separated = False
        elif token.text == "]" and depth:
            depth -= 1
            if depth == 0:
                if python_list and separated:
                    _set_scale(nested)  # each item keeps its own scale (None)
                else:
                    _set_scale(items + nested)
                items, nested = [], []
        elif depth == 1 and token.text == ",":
            separated = True
        elif depth and token.value is not None:
            (items if depth == 1 else nested).append(token)
    return tokens


def _set_scale(numbers: list[Token]) -> None:
    finite = [abs(t.value) for t in numbers if t.value is not None and math.isfinite(t.value)]
    for t in numbers:
        t.scale = max(finite, default=0.0)


def _line_of(text: str, offset: int) -> tuple[int, str]:
    """1-based line number and text of the output line holding ``offset``."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text.count("\n", 0, offset) + 1, text[start : end if end >= 0 else len(text)]


def _byte_offset(text: str, char_offset: int) -> int:
    return char_offset if text.isascii() else len(text[:char_offset].encode("utf-8"))


@dataclass
class _Candidate:
    """A divergence with its place in the original's order (stdout bytes written before it)."""

    divergence: Divergence
    position: int | None
    rank: int  # tie-break and fallback order: structure, gradient, stdout, state, exit
    # One side stopped producing this observable, or its value is cut short there: a crash
    # on that side explains it, so the crash is reported instead.
    ended: bool = False


_INTEGER = re.compile(r"[-+]?\d+")


def _numbers(tokens: list[Token]) -> tuple[np.ndarray, np.ndarray]:
    """Values of number tokens, and the base their tolerance is relative to."""
    values = np.array([t.value for t in tokens], np.float64)
    bases = np.array([abs(t.value) if t.scale is None else t.scale for t in tokens], np.float64)
    return values, bases


def _same_kind(a: Token, b: Token) -> bool:
    """Both numbers, or the same word."""
    if a.value is None or b.value is None:
        return a.value is None and b.value is None and a.text == b.text
    return True


def _steps_before(text: str, tokens: list[Token], step_offsets: list[int | None]) -> np.ndarray:
    """Per token: the optimizer steps taken before it was printed.

    ``step_offsets`` are stdout byte offsets; they are turned into character
    offsets in one pass over the text.
    """
    data = text.encode("utf-8")
    chars, done, at = [], 0, 0
    for offset in sorted(o for o in step_offsets if o is not None):
        chars.append(at + len(data[done:offset].decode("utf-8", errors="ignore")))
        done, at = offset, chars[-1]
    starts = np.array([t.start for t in tokens], np.int64)
    return np.searchsorted(np.array(chars, np.int64), starts, side="right")


def _text_only(old: list[Token], new: list[Token], tol: Tolerance, steps: np.ndarray) -> bool:
    """Do the outputs differ in words only: the same numbers, in order, within tolerance?"""
    numbers = [i for i, t in enumerate(old) if t.value is not None]
    new_numbers = [t for t in new if t.value is not None]
    if len(numbers) != len(new_numbers):
        return False
    return bool(_close([old[i] for i in numbers], new_numbers, tol, steps[numbers]).all())


def _close(old: list[Token], new: list[Token], tol: Tolerance, steps: np.ndarray) -> np.ndarray:
    """Per pair of number tokens: equal within tolerance, or exactly for two integers.

    A printed integer is a count, a step, a label or a shape: 10001 for 10000 is a
    mistake, however small relative to the number.
    """
    old_values, bases = _numbers(old)
    new_values, _ = _numbers(new)
    close = tol.close(new_values, old_values, bases, steps)
    integers = np.array(
        [bool(_INTEGER.fullmatch(a.text) and _INTEGER.fullmatch(b.text)) for a, b in zip(old, new)],
        bool,
    )
    return close & ~(integers & (new_values != old_values))


def _first_difference(
    old: list[Token], new: list[Token], tol: Tolerance, stats: _Stats, steps: np.ndarray
) -> int | None:
    """Index of the first token that differs (or where one output ends); None if none does.

    ``steps`` holds, per token of ``old``, the optimizer steps taken before it.
    Numbers are compared in one vectorised pass: outputs run to 10^5 tokens.
    """
    shorter = min(len(old), len(new))
    words_differ = next((i for i in range(shorter) if not _same_kind(old[i], new[i])), shorter)
    positions = [i for i in range(words_differ) if old[i].value is not None]
    old_numbers, new_numbers = [old[i] for i in positions], [new[i] for i in positions]
    old_values, bases = _numbers(old_numbers)
    new_values, _ = _numbers(new_numbers)
    close = _close(old_numbers, new_numbers, tol, steps[positions])
    failing = np.flatnonzero(~close)
    matched = int(failing[0]) if failing.size else len(positions)
    stats.add(new_values[:matched], old_values[:matched], bases[:matched])
    stats.printed_numbers += matched
    if failing.size:
        return positions[matched]
    if words_differ == len(old) == len(new):
        return None
    return words_differ


def _print_line(prints: Sequence[Sequence[int]], byte: int) -> int | None:
    """The program line whose ``print`` wrote the byte at ``byte`` (prints are in order)."""
    index = bisect.bisect_right([offset for offset, _ in prints], byte) - 1
    return prints[index][1] if index >= 0 else None


def with_reprints(
    old_text: str,
    new_text: str,
    prints: tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]],
    reprinted: frozenset[int],
) -> tuple[str, int]:
    """The rewrite's output with what each reprinted ``print`` wrote replaced by the original's.

    A TF1 program that prints a graph tensor shows its repr; the TF2 rewrite prints the
    value there, by design (the rewriter reports it). Prints pair up by their order, so this
    holds only when both runs printed as many times; otherwise the output is left as it is.
    Returns the text and how many prints were replaced.
    """
    old_prints, new_prints = prints
    if not reprinted or len(old_prints) != len(new_prints):
        return new_text, 0
    old_bytes, new_bytes = old_text.encode(), new_text.encode()

    def segment(data: bytes, events: Sequence[Sequence[int]], i: int) -> tuple[int, int]:
        end = events[i + 1][0] if i + 1 < len(events) else len(data)
        return events[i][0], end

    pieces: list[bytes] = []
    at = replaced = 0
    for i, (_, line) in enumerate(old_prints):
        if line not in reprinted:
            continue
        start, end = segment(new_bytes, new_prints, i)
        old_start, old_end = segment(old_bytes, old_prints, i)
        pieces += [new_bytes[at:start], old_bytes[old_start:old_end]]
        at = end
        replaced += 1
    pieces.append(new_bytes[at:])
    return b"".join(pieces).decode("utf-8", "replace"), replaced


def compare_stdout(
    old_text: str,
    new_text: str,
    tol: Tolerance,
    stats: _Stats,
    step_offsets: list[int | None],
    prints: tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]] = ((), ()),
    drifted: bool = True,
) -> _Candidate | None:
    """The first token that differs, with the output lines and ``print`` lines around it.

    ``drifted=False``: the two runs' states never parted (every traced value bitwise
    equal), so no printed number is allowed the drift of compounded rounding."""
    if old_text == new_text:  # the common case: nothing to find, only numbers to count
        stats.printed_numbers += sum(1 for t in tokenize(old_text) if t.value is not None)
        return None
    old, new = tokenize(old_text), tokenize(new_text)
    steps = _steps_before(old_text, old, step_offsets)
    allowed = steps if drifted else np.zeros_like(steps)  # the steps the tolerance widens with
    index = _first_difference(old, new, tol, stats, allowed)
    if index is None:
        return None
    a = old[index] if index < len(old) else None
    b = new[index] if index < len(new) else None
    old_pos = a.start if a is not None else len(old_text)
    new_pos = b.start if b is not None else len(new_text)
    old_no, old_line = _line_of(old_text, old_pos)
    new_no, new_line = _line_of(new_text, new_pos)
    byte = _byte_offset(old_text, old_pos)
    # past the original's end: every step came before
    steps_before = int(steps[index]) if a is not None else sum(o is not None for o in step_offsets)
    if a is None or b is None:
        kind = "the original's output ends here" if a is None else "the rewrite's output ends here"
        ended = True
    else:
        ended = False
        kind = "text-only difference" if _text_only(old, new, tol, allowed) else "output differs"
    detail = (
        f"{kind}: output line {old_no} {old_line.strip()!r} vs line {new_no} {new_line.strip()!r}"
    )
    divergence = Divergence(
        "stdout",
        steps_before,
        None,
        a.text if a else None,
        b.text if b else None,
        _print_line(prints[0], byte) if a else None,
        _print_line(prints[1], _byte_offset(new_text, new_pos)) if b else None,
        detail,
        None if ended else incomparable(old_line),
    )
    return _Candidate(divergence, byte, 2, ended)


# ------------------------------------------------------------------------------- summaries


def compare_summaries(
    old: list[dict[str, Any]], new: list[dict[str, Any]], tol: Tolerance, stats: _Stats
) -> list[_Candidate]:
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
        candidates.append(_Candidate(divergence, None, 2, ended=True))
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
    stats: _Stats,
) -> _Candidate | None:
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
        return _Candidate(divergence, a["stdout_offset"], 2)
    return _count_mismatch(
        "summary", tag, old, new,
        f"the original writes {len(old)} values of summary {tag!r}, the rewrite {len(new)}",
    )


def _count_mismatch(kind: str, name: str | None, old: list, new: list, detail: str) -> _Candidate | None:
    """A series one side writes more records of: found at the first record the other lacks."""
    if len(old) == len(new):
        return None
    k = min(len(old), len(new))
    extra = old[k] if len(old) > k else new[k]
    divergence = Divergence(
        kind, extra["steps"], name, len(old), len(new),
        extra["line"] if len(old) > k else None, extra["line"] if len(new) > k else None, detail,
    )
    return _Candidate(divergence, extra["stdout_offset"] if len(old) > k else None, 2, ended=True)


# ------------------------------------------------------------------------- trace variables


def _shape(entry: dict[str, Any]) -> tuple[int, ...] | None:
    value = entry.get("value")
    return tuple(value["shape"]) if value else None


def model_variables(trace: dict[str, Any]) -> set[int]:
    """Creation indices of the model's variables: stepped ones, else trainable ones."""
    stepped = {g["index"] for step in trace["steps"] for g in step["grads"]}
    if stepped:
        return stepped
    return {v["index"] for v in trace["variables"] if v.get("trainable", True)}


def first_steps(trace: dict[str, Any]) -> dict[int, int]:
    """Creation index -> the optimizer step that first updated the variable."""
    first: dict[int, int] = {}
    for number, step in enumerate(trace["steps"]):
        for g in step["grads"]:
            first.setdefault(g["index"], number)
    return first


def pair_variables(
    old_vars: list[dict[str, Any]],
    new_vars: list[dict[str, Any]],
    old_model: set[int],
    new_model: set[int],
    old_first: dict[int, int] | None = None,
    new_first: dict[int, int] | None = None,
) -> dict[int, int]:
    """Map old creation index -> new creation index: by name, else order + shape.

    Names left unpaired pair by order and shape among the model's variables, then among the
    rest of the state (counters, moving statistics). A name matches the same name, or, failing
    that, the other side's name under one more leading scope (see ``_pair_by_scope``). Model order is the order of the step
    that first updated each variable (``first_steps``), then creation order: a Keras layer
    is created where it is first called, so two models built in one order in TF1 may be
    built in the other in TF2, yet each trains at the same steps as before.
    """

    def keyed(variables: list[dict[str, Any]]) -> dict[tuple[str, int], int]:
        seen: dict[str, int] = {}
        keys = {}
        for v in variables:
            occurrence = seen.get(v["var"], 0)
            seen[v["var"]] = occurrence + 1
            keys[(v["var"], occurrence)] = v["index"]
        return keys

    old_keys, new_keys = keyed(old_vars), keyed(new_vars)
    pairs = {old_keys[k]: new_keys[k] for k in old_keys if k in new_keys}
    taken = set(pairs.values())
    pairs |= _pair_by_scope(
        [v for v in old_vars if v["index"] not in pairs],
        [v for v in new_vars if v["index"] not in taken],
    )
    taken = set(pairs.values())

    def order(first: dict[int, int] | None) -> Any:
        return lambda v: ((first or {}).get(v["index"], math.inf), v["index"])

    for in_model in (True, False):  # the model's variables, then the rest of the state
        rest_new = sorted(
            (v for v in new_vars
             if v["index"] not in taken and (v["index"] in new_model) == in_model),
            key=order(new_first),
        )
        for v in sorted(old_vars, key=order(old_first)):
            if v["index"] in pairs or (v["index"] in old_model) != in_model:
                continue
            for candidate in rest_new:
                if _shape(candidate) == _shape(v):
                    pairs[v["index"]] = candidate["index"]
                    taken.add(candidate["index"])
                    rest_new.remove(candidate)
                    break
    return pairs


_Names = dict[str, list[int]]  # variable name -> creation indices


def _pair_by_scope(
    old_vars: list[dict[str, Any]], new_vars: list[dict[str, Any]]
) -> dict[int, int]:
    """Pair names equal once one side's leading scope is dropped, where that is unambiguous.

    A Keras weight's path starts with its model's name (``model/dense1/weight``),
    the TF1 variable it replaces does not (``dense1/weight``); creation order
    alone pairs them wrongly as soon as a variable is missing or reordered.
    """

    def index(variables: list[dict[str, Any]]) -> tuple[_Names, _Names]:
        full: _Names = {}
        inner: _Names = {}  # by the name without its leading scope
        for v in variables:
            full.setdefault(v["var"], []).append(v["index"])
            if rest := v["var"].partition("/")[2]:
                inner.setdefault(rest, []).append(v["index"])
        return full, inner

    def matches(
        variables: list[dict[str, Any]], other: tuple[_Names, _Names]
    ) -> dict[int, list[int]]:
        full, inner = other
        found = {}
        for v in variables:
            rest = v["var"].partition("/")[2]
            found[v["index"]] = inner.get(v["var"], []) + (full.get(rest, []) if rest else [])
        return found

    forward = matches(old_vars, index(new_vars))
    backward = matches(new_vars, index(old_vars))
    return {i: js[0] for i, js in forward.items() if len(js) == 1 and backward[js[0]] == [i]}


def compare_records(
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    tol: Tolerance,
    stats: _Stats,
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
        stats_local = _Stats()
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
    stats: _Stats,
    notes: list[str],
    uncompared: list[str],
) -> tuple[list[_Candidate], int]:
    """Divergences in variables, updates and final state; and the number of steps compared.

    State outside the model that pairs with nothing on the other side goes to ``uncompared``:
    a counter the rewrite renamed and updates wrongly would otherwise pass unseen."""
    old_vars, new_vars = old["variables"], new["variables"]
    old_model, new_model = model_variables(old), model_variables(new)
    pairs = pair_variables(old_vars, new_vars, old_model, new_model, first_steps(old), first_steps(new))
    reverse = {j: i for i, j in pairs.items()}
    candidates: list[_Candidate] = []

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
        detail = f"{v['var']} (shape {_shape(v)}) has no counterpart in the rewrite"
        if j is not None:
            other = new_vars[j]
            detail += f"; by creation order it would be {other['var']} (shape {_shape(other)})"
        detail += called_from(v["index"], j)
        candidates.append(
            _Candidate(
                Divergence(
                    "variable", None, v["var"], _shape(v), None, *lines(v["index"], j), detail
                ),
                v.get("stdout_offset"),
                0,
                ended=True,
            )
        )
    for v in new_in_model:
        if v["index"] not in reverse:
            detail = (
                f"the rewrite creates {v['var']} (shape {_shape(v)}), which the original has not"
                + called_from(None, v["index"])
            )
            candidates.append(
                _Candidate(
                    Divergence(
                        "variable", None, v["var"], None, _shape(v), None, v["line"], detail
                    ),
                    None,
                    0,
                    ended=True,
                )
            )
    uncompared.extend(
        f"the {side}'s {v['var']} (shape {_shape(v)}, line {v['line']}) has no counterpart"
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
                _Candidate(
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
            candidates.append(_Candidate(found, old_steps[k].get("stdout_offset"), 1))
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
                _Candidate(
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
                _Candidate(
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
            candidates.append(_Candidate(divergence, old_vars[i].get("stdout_offset"), 0))
        else:  # a crash on one side cuts final values short and explains them
            candidates.append(_Candidate(divergence, None, 3, ended=True))
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
    stats: _Stats,
) -> _Candidate | None:
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
            return _Candidate(divergence, a["stdout_offset"], 2)
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
    stats: _Stats,
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
    stats = _Stats()
    notes: list[str] = []
    candidates: list[_Candidate] = []
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
        candidates.append(_Candidate(exit_divergence, None, 4))
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


def _first(candidates: list[_Candidate]) -> Divergence | None:
    if not candidates:
        return None
    if all(c.position is not None for c in candidates if c.rank < 3):
        key = lambda c: (c.position if c.position is not None else math.inf, c.rank)
    else:
        key = lambda c: (c.rank,)
    return min(candidates, key=key).divergence
