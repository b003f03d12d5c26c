"""Name safety of a rewrite: the output reads no name that the input had bound.

A rewrite that parses and is stable can still be wrong code: a statement that bound a name
left while a read of it stayed (`params = tf.trainable_variables()` dropped, `zip(grads,
params)` kept) fails only when the program runs. pyflakes finds the names a module reads and
never binds; those of the output that the input did not have are the rewrite's own, and
such a rewrite is refused rather than written. Names the input itself leaves undefined
(star imports, a notebook's `display`) are not the rewrite's doing and pass.
"""

from __future__ import annotations

import ast
import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pyflakes import checker, messages

from migrate import notebooks

#: pyflakes' messages for a name read where nothing binds it.
UNDEFINED = (messages.UndefinedName, messages.UndefinedLocal, messages.UndefinedExport)

_CELL_LINE = re.compile(notebooks.CELL_MARK.format(r"(\d+)") + "$")


def undefined_names(code: bytes | str) -> dict[str, tuple[int, int]] | None:
    """Each name the module reads where nothing binds it, with the (line, column) of its first
    read; None when Python cannot parse the module (there is nothing to compare then)."""
    with _collector_paused():
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError):
            return None
        reported = checker.Checker(tree).messages
    found: dict[str, tuple[int, int]] = {}
    for message in reported:
        if isinstance(message, UNDEFINED):
            place = (message.lineno, message.col)
            name = str(message.message_args[0])
            found[name] = min(found.get(name, place), place)
    return found


def refusal(source: bytes | str, code: bytes | str, notebook: bool = False) -> str | None:
    """Why the rewrite ``code`` of ``source`` must not be written, or None when it is safe.

    A notebook's code cells are checked as one program, as they were rewritten; its lines
    are told by cell.
    """
    if notebook:
        source, _ = notebooks.to_script(_as_bytes(source))
        code, _ = notebooks.to_script(_as_bytes(code))
    after = undefined_names(code)
    if after == {}:  # the usual case: nothing to compare, so the input is not analysed
        return None
    before = undefined_names(source)
    if before is None:
        return None
    if after is None:
        return "rewrite refused: its output is not valid Python"
    new = sorted((place, name) for name, place in after.items() if name not in before)
    if not new:
        return None
    where = _cell_lines(str(code)) if notebook else None
    listed = ", ".join(f"{name} ({where(line) if where else f'line {line}'})" for (line, _), name in new)
    noun = "name" if len(new) == 1 else "names"
    return f"rewrite refused: it would read undefined {noun} {listed}"


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a tree is built and walked.

    Each of the many objects they allocate counts towards a collection, and a full one walks
    every object alive, the rewrite's own trees of a big file included: with the collector on,
    the check of a 10,000-line rewrite took three times as long. What the check leaves is
    collected once the collector is back.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _as_bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _cell_lines(script: str) -> Callable[[int], str]:
    """A function telling a line of a notebook's joined script as `cell C, line L`, counting
    cells and lines from 1 as Jupyter shows them."""
    starts: list[tuple[int, int]] = []  # (script line of the marker, cell index)
    for number, line in enumerate(script.splitlines(), 1):
        marker = _CELL_LINE.match(line.strip())
        if marker:
            starts.append((number, int(marker.group(1))))

    def where(line: int) -> str:
        start, cell = next(((s, c) for s, c in reversed(starts) if s < line), (0, -1))
        return f"cell {cell + 1}, line {line - start}"

    return where
