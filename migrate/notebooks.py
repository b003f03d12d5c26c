"""Jupyter notebooks: rewrite the code cells as one program, keep everything else.

The code cells are joined into one script with a marker line between cells, so a
session in one cell and the placeholders in another are seen together; IPython
magics and shell lines become marker statements while the script is rewritten and
are put back verbatim afterwards. Outputs, metadata and the JSON layout are kept
byte for byte: a notebook whose JSON layout cannot be reproduced is refused rather
than reformatted.
"""

from __future__ import annotations

import json
import re
from typing import Any

from migrate.api import RewriteConfig, RewriteResult, rewrite_source

CELL_MARK = "# tfmigrate:cell:{}"
MAGIC_MARK = "pass  # tfmigrate:magic:{}"
_CELL_LINE = re.compile(r"^# tfmigrate:cell:(\d+)$")
_MAGIC_LINE = re.compile(r"^([ \t]*)pass  # tfmigrate:magic:(\d+)$")
_MAGIC = re.compile(r"^[ \t]*(?:[%!]|\?\??\w|\w[\w.]*\?\??\s*$)")


class NotebookError(Exception):
    """Not a notebook this tool can rewrite without damaging it."""


def _layout(text: str, notebook: Any) -> tuple[int | None, bool]:
    """The ``json.dumps`` settings that reproduce ``text`` exactly, or raise."""
    for indent in (1, 2, 4, None):
        for trailing in (True, False):
            dumped = json.dumps(notebook, indent=indent, ensure_ascii=False)
            if dumped + ("\n" if trailing else "") == text:
                return indent, trailing
    raise NotebookError("its JSON layout is not one this tool can reproduce byte for byte")


def _load(source: bytes) -> tuple[dict[str, Any], int | None, bool]:
    try:
        text = source.decode("utf-8")
        notebook = json.loads(text)
    except (UnicodeDecodeError, ValueError) as error:
        raise NotebookError(f"not valid JSON: {error}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError("no 'cells' list (not an nbformat 4 notebook)")
    indent, trailing = _layout(text, notebook)
    return notebook, indent, trailing


def _cell_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(source)
    if isinstance(source, str):
        return source
    raise NotebookError("a cell's source is neither a string nor a list of strings")


def _code_cells(notebook: dict[str, Any]) -> list[int]:
    """Indices of code cells that hold Python (cell magics such as ``%%bash`` are left alone)."""
    return [
        i
        for i, cell in enumerate(notebook["cells"])
        if isinstance(cell, dict)
        and cell.get("cell_type") == "code"
        and not _cell_text(cell).lstrip().startswith("%%")
    ]


def to_script(source: bytes) -> tuple[str, list[str]]:
    """The notebook's code cells as one script, and the magic lines it replaced."""
    notebook, _, _ = _load(source)
    magics: list[str] = []
    parts: list[str] = []
    for index in _code_cells(notebook):
        lines = []
        for line in _cell_text(notebook["cells"][index]).splitlines():
            if _MAGIC.match(line):
                indent = line[: len(line) - len(line.lstrip())]
                lines.append(indent + MAGIC_MARK.format(len(magics)))
                magics.append(line)
            else:
                lines.append(line)
        parts.append(CELL_MARK.format(index) + "\n" + "".join(f"{line}\n" for line in lines))
    return "".join(parts), magics


def _edge_blanks(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    lead = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    trail = next((i for i, line in enumerate(reversed(lines)) if line.strip()), len(lines))
    return lead, trail


def _split(script: str, magics: list[str], expected: list[int]) -> dict[int, list[str]]:
    """Cut the rewritten script back into cells and restore the magic lines.

    A rewrite may wrap code from a later cell into a statement that starts earlier
    (a ``@tf.function`` whose body is the next cell's graph code); that cell then
    starts where the wrapping statement starts, so no statement spans two cells.
    """
    cells: dict[int, list[str]] = {}
    order: list[int] = []
    current: list[str] | None = None
    statement_start: int | None = None  # where the current top-level statement begins
    for line in script.splitlines():
        cell = _CELL_LINE.match(line.strip())
        if cell:
            index = int(cell.group(1))
            moved: list[str] = []
            if line[:1].isspace():
                if current is None or statement_start is None:
                    raise NotebookError("the rewrite would move code between cells")
                moved = current[statement_start:]
                del current[statement_start:]
            order.append(index)
            current = cells.setdefault(index, moved)
            statement_start = 0 if moved else None
            continue
        if current is None:
            raise NotebookError("the rewrite put code before the first cell")
        magic = _MAGIC_LINE.match(line)
        if magic:
            line = magic.group(1) + magics[int(magic.group(2))].lstrip()
        top_level = line.strip() and not line[:1].isspace() and not line.startswith(("#", ")", "]", "}"))
        if top_level and not (current and current[-1].startswith("@")):
            statement_start = len(current)
        current.append(line)
    if order != expected:
        raise NotebookError("the rewrite would move code between cells; rewrite it as a script")
    return cells


def _cell_source(lines: list[str], old: str) -> str:
    """Join a cell's lines, with the blank lines at its edges as the original cell had them."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    lead, trail = _edge_blanks(old)
    body = "\n".join([""] * lead + lines + [""] * trail)
    return body + ("\n" if old.endswith("\n") and not body.endswith("\n") else "")


def rewrite_notebook(
    source: bytes | str, *, filename: str = "<stdin>", config: RewriteConfig | None = None,
    positions: bool = True,
) -> RewriteResult:
    """Rewrite a notebook's code cells; bytes in, bytes out."""
    raw = source.encode("utf-8") if isinstance(source, str) else source
    notebook, indent, trailing = _load(raw)
    cells = _code_cells(notebook)
    script, magics = to_script(raw)
    result = rewrite_source(script, filename=filename, config=config, positions=positions)
    if not result.changed:
        return RewriteResult(source, False, result.level, result.findings)
    rewritten = _split(str(result.code), magics, cells)
    for index in cells:
        cell = notebook["cells"][index]
        old = _cell_text(cell)
        new = _cell_source(rewritten[index], old)
        if new == old:
            continue
        if isinstance(cell["source"], list):
            cell["source"] = new.splitlines(keepends=True)
        else:
            cell["source"] = new
    out = json.dumps(notebook, indent=indent, ensure_ascii=False) + ("\n" if trailing else "")
    code: bytes | str = out if isinstance(source, str) else out.encode("utf-8")
    return RewriteResult(code, code != source, result.level, result.findings)
