"""Name safety of a rewrite: the output reads no name that the input had bound.

A rewrite that parses and is stable can still be wrong code: a statement that bound a name
left while a read of it stayed (`params = tf.trainable_variables()` dropped, `zip(grads,
params)` kept) fails only when the program runs. pyflakes finds the names a module reads and
never binds; those of the output that the input did not have are the rewrite's own, and
such a rewrite is refused rather than written. Names the input itself leaves undefined
(star imports, a notebook's `display`) are not the rewrite's doing and pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from migrate import notebooks
from migrate.unbound import new_reads

_CELL_LINE = re.compile(notebooks.CELL_MARK.format(r"(\d+)") + "$")


def refusal(source: bytes | str, code: bytes | str, notebook: bool = False) -> str | None:
    """Why the rewrite ``code`` of ``source`` must not be written, or None when it is safe.

    A notebook's code cells are checked as one program, as they were rewritten; its lines
    are told by cell.
    """
    if notebook:
        source, _ = notebooks.to_script(_as_bytes(source))
        code, _ = notebooks.to_script(_as_bytes(code))
    new = new_reads(source, code)
    if new is None:
        return "rewrite refused: its output is not valid Python"
    if not new:
        return None
    where = _cell_lines(str(code)) if notebook else None
    listed = ", ".join(f"{name} ({where(line) if where else f'line {line}'})" for (line, _), name in new)
    noun = "name" if len(new) == 1 else "names"
    return f"rewrite refused: it would read undefined {noun} {listed}"


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
