"""Jupyter notebooks: rewrite the code cells as one program, keep everything else.

The code cells are joined into one script with a marker line between cells, so a
session in one cell and the placeholders in another are seen together; IPython
magics and shell lines become marker statements while the script is rewritten and
are put back verbatim afterwards. Outputs, metadata and the JSON layout are kept
byte for byte: a notebook whose JSON layout cannot be reproduced is refused rather
than reformatted. Only CR, LF and CRLF end a line (as for Python itself, not the
other separators ``str.splitlines`` knows, such as U+2028), and every line the
rewrite leaves keeps its own ending.
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from migrate.api import RewriteConfig, RewriteResult, rewrite_source

CELL_MARK = "# tfmigrate:cell:{}"
MAGIC_MARK = "pass  # tfmigrate:magic:{}"
_CELL_LINE = re.compile(r"^# tfmigrate:cell:(\d+)$")
_MAGIC_LINE = re.compile(r"^([ \t]*)pass  # tfmigrate:magic:(\d+)$")
_MAGIC = re.compile(r"^[ \t]*(?:[%!]|\?\??\w|\w[\w.]*\?\??\s*$)")
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+\Z")


class NotebookError(Exception):
    """Not a notebook this tool can rewrite without damaging it."""


class _Layout:
    """The ``json.dumps`` settings that reproduce a notebook's text exactly."""

    def __init__(self, text: str, notebook: Any) -> None:
        for ascii_only in (False, True):
            for indent in (1, 2, 4, None):
                for trailing in (True, False):
                    self.indent, self.trailing, self.ascii_only = indent, trailing, ascii_only
                    if self.dumps(notebook) == text:
                        return
        raise NotebookError("its JSON layout is not one this tool can reproduce byte for byte")

    def dumps(self, notebook: Any) -> str:
        dumped = json.dumps(notebook, indent=self.indent, ensure_ascii=self.ascii_only)
        return dumped + ("\n" if self.trailing else "")


def _load(source: bytes) -> tuple[dict[str, Any], _Layout]:
    try:
        text = source.decode("utf-8")
        notebook = json.loads(text)
    except (UnicodeDecodeError, ValueError) as error:
        raise NotebookError(f"not valid JSON: {error}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError("no 'cells' list (not an nbformat 4 notebook)")
    return notebook, _Layout(text, notebook)


def _cell_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    if isinstance(source, str):
        return source
    raise NotebookError("a cell's source is neither a string nor a list of strings")


def _lines(text: str) -> list[str]:
    """``text`` cut after each CR, LF or CRLF, endings kept."""
    return _LINE.findall(text)


def _content(line: str) -> str:
    return line.rstrip("\r\n")


def _code_cells(notebook: dict[str, Any]) -> list[int]:
    """Indices of code cells that hold Python (cell magics such as ``%%bash`` are left alone)."""
    return [
        i
        for i, cell in enumerate(notebook["cells"])
        if isinstance(cell, dict)
        and cell.get("cell_type") == "code"
        and not _cell_text(cell).lstrip().startswith("%%")
    ]


class _LogicalLines:
    """Which lines of a cell start a logical line: a `%` or `!` line inside brackets, a string
    or after a backslash continues an expression (`print("%d"` then `    % (i, loss))`)."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the open triple quote
        self.joined = False

    def starts(self) -> bool:
        return not (self.depth or self.quote or self.joined)

    def scan(self, line: str) -> None:
        """Read a line of Python: its brackets, strings and continuation."""
        i, quote = 0, self.quote
        while i < len(line):
            if quote:
                if line.startswith(quote, i):
                    quote, i = "", i + len(quote)
                    continue
                i += 2 if line[i] == "\\" else 1
                continue
            char = line[i]
            if char == "#":
                break
            if char in "\"'":
                quote = char * 3 if line.startswith(char * 3, i) else char
                i += len(quote)
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        self.quote = quote if len(quote) == 3 else ""  # a one-quote string ends with its line
        self.joined = line.rstrip().endswith("\\") and not self.quote


def to_script(source: bytes) -> tuple[str, list[str]]:
    """The notebook's code cells as one script, and the magic lines it replaced."""
    notebook, _ = _load(source)
    magics: list[str] = []
    parts: list[str] = []
    for index in _code_cells(notebook):
        lines = []
        scan = _LogicalLines()
        for line in map(_content, _lines(_cell_text(notebook["cells"][index]))):
            if scan.starts() and _MAGIC.match(line):
                indent = line[: len(line) - len(line.lstrip())]
                lines.append(indent + MAGIC_MARK.format(len(magics)))
                magics.append(line)
            else:
                scan.scan(line)
                lines.append(line)
        parts.append(CELL_MARK.format(index) + "\n" + "".join(f"{line}\n" for line in lines))
    return "".join(parts), magics


def _split(script: str, magics: list[str], expected: list[int]) -> dict[int, list[str]]:
    """Cut the rewritten script back into cells and restore the magic lines.

    A rewrite may wrap code from a later cell into a statement that starts earlier
    (a ``@tf.function`` whose body is the next cell's graph code); that cell then
    starts where the wrapping statement starts, so no statement spans two cells. Code of
    an earlier cell wrapped into a later cell's statement (a step defined where it is first
    called) stays in that later cell, which runs after it; a cell left with nothing is empty.
    """
    cells: dict[int, list[str]] = {}
    order: list[int] = []
    current: list[str] | None = None
    statement_start: int | None = None  # where the current top-level statement begins
    lines = script.split("\n")  # the script's own newlines: LF only
    for line in lines if lines[-1] else lines[:-1]:
        cell = _CELL_LINE.match(line.strip())
        if cell:
            index = int(cell.group(1))
            moved: list[str] = []
            if line[:1].isspace() and (index in cells or (order and index < order[-1])):
                # an earlier cell's statements copied into a function a later cell defines
                # (a step): they run there, after that cell, and the cell keeps the rest
                continue
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
    if order != [i for i in expected if i in cells]:
        raise NotebookError("the rewrite would move code between cells; rewrite it as a script")
    return {i: cells.get(i, []) for i in expected}  # a cell whose statements all moved is empty


def _cell_source(lines: list[str], old: str) -> str:
    """Join a cell's rewritten lines as the original cell was joined.

    Its blank lines at the edges come back as they were, every line the rewrite left keeps
    its own ending (CRLF stays CRLF), new lines get the cell's first ending, and the last
    line ends with a newline only if the original's did.
    """
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    old_lines = _lines(old)
    lead = next((i for i, line in enumerate(old_lines) if line.strip()), len(old_lines))
    end = len(old_lines)
    while end > lead and not old_lines[end - 1].strip():
        end -= 1
    middle = old_lines[lead:end]
    newline = next((line[len(_content(line)):] for line in old_lines if line != _content(line)), "\n")
    body: list[str] = []
    matcher = difflib.SequenceMatcher(None, [_content(line) for line in middle], lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        body += middle[i1:i2] if tag == "equal" else [line + newline for line in lines[j1:j2]]
    pieces = [line if line != _content(line) else line + newline
              for line in old_lines[:lead] + body + old_lines[end:]]
    if pieces and not old.endswith(("\r", "\n")):
        pieces[-1] = _content(pieces[-1])
    return "".join(pieces)


def rewrite_notebook(
    source: bytes | str, *, filename: str = "<stdin>", config: RewriteConfig | None = None,
    positions: bool = True,
) -> RewriteResult:
    """Rewrite a notebook's code cells; bytes in, bytes out."""
    raw = source.encode("utf-8") if isinstance(source, str) else source
    script, magics = to_script(raw)
    result = rewrite_source(script, filename=filename, config=config, positions=positions)
    if not result.changed:
        return RewriteResult(source, False, result.level, result.findings)
    out = from_script(raw, str(result.code), magics)
    code: bytes | str = out if isinstance(source, str) else out.encode("utf-8")
    return RewriteResult(code, code != source, result.level, result.findings)


def from_script(source: bytes, script: str, magics: list[str]) -> str:
    """The notebook's text with its code cells cut from ``script``, a rewrite of the script
    `to_script` made of it (:class:`NotebookError` when code moved between cells)."""
    notebook, layout = _load(source)
    cells = _code_cells(notebook)
    rewritten = _split(script, magics, cells)
    for index in cells:
        cell = notebook["cells"][index]
        old = _cell_text(cell)
        new = _cell_source(rewritten[index], old)
        if new == old:
            continue
        cell["source"] = _lines(new) if isinstance(cell.get("source"), list) else new
    return layout.dumps(notebook)
