"""Printed output as a token stream: numbers compared with the tolerance, words exactly.

Whitespace is not a token (NumPy pads arrays differently when a value's width changes). A
printed array is one tensor, its numbers judged against its largest magnitude; see
``tokenize``. The first difference is reported with its output line on both sides.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from runtime.observables import Candidate, Divergence, Stats, Tolerance
from runtime.printed_reprs import incomparable


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
    old: list[Token], new: list[Token], tol: Tolerance, stats: Stats, steps: np.ndarray
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
    stats: Stats,
    step_offsets: list[int | None],
    prints: tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]] = ((), ()),
    drifted: bool = True,
) -> Candidate | None:
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
    return Candidate(divergence, byte, 2, ended)
