"""A big module parsed by libcst in pieces of top-level statements, into the tree one parse gives.

libcst's native parser holds the tokens and the whole grammar state of its input until it
returns: for a file of a few megabytes that is gigabytes, and its time grows faster than the
file. Parsed a few tens of kilobytes at a time, its peak memory stays that of one piece.

A piece starts on the line of a top-level statement (its first decorator) that follows a
simple statement and shares its line with no other; the comments and blank lines before it end
the previous piece, as its module's footer, and are moved to the statement that owns them in
one parse. Every piece after
the first is parsed behind a small block written with the module's indentation and newline,
so its blocks and newlines are stored as one parse of the whole file stores them (as the
module's defaults). Anything this cannot reproduce (another encoding, a byte-order mark, a
piece that does not parse alone) takes one parse of the whole file.
"""

from __future__ import annotations

import ast
import itertools
import re

import libcst as cst

#: Files up to this size take one parse; above it, pieces of about ``PIECE`` characters.
WHOLE = 256 * 1024
PIECE = 64 * 1024

_NEWLINE = re.compile(r"\r\n|\r|\n")
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")  # PEP 263, on the first two lines


def parse_module(
    source: bytes | str, tree: ast.Module, piece: int | None = None, whole: int | None = None,
) -> cst.Module:
    """``cst.parse_module(source)``, by pieces of ``piece`` characters (``PIECE``) when the
    source is bigger than ``whole`` (``WHOLE``).

    ``tree`` is the stdlib parse of the same source; it gives the statements' lines.
    """
    piece = PIECE if piece is None else piece
    if len(source) <= (WHOLE if whole is None else whole):
        return cst.parse_module(source)
    text = _utf8_text(source)
    if text is None:
        return cst.parse_module(source)
    starts = _line_starts(text)
    cuts = _cuts(tree, starts, len(text), piece)
    if len(cuts) < 3:  # one piece
        return cst.parse_module(source)
    try:
        return _joined(text, cuts)
    except (cst.ParserSyntaxError, _Mismatch):
        return cst.parse_module(source)


class _Mismatch(Exception):
    """A piece's parse would not store its nodes as the whole file's parse does."""


def _utf8_text(source: bytes | str) -> str | None:
    """The text of a UTF-8 source with no byte-order mark or coding cookie (what the pieces
    are cut from); None for any other."""
    if isinstance(source, bytes):
        if source.startswith(b"\xef\xbb\xbf"):
            return None
        source = source.decode("utf-8")  # it parsed with ast: the bytes decode
    if source.startswith("\ufeff") or any(_COOKIE.match(line) for line in source.split("\n", 2)[:2]):
        return None
    return source


def _line_starts(text: str) -> list[int]:
    """Offset of each line's start (index 0 is line 1), lines as Python counts them."""
    return [0, *(m.end() for m in _NEWLINE.finditer(text))]


def _cuts(tree: ast.Module, starts: list[int], end: int, piece: int) -> list[int]:
    """Offsets the pieces start at, and ``end``: a piece ends before the first statement line
    after ``piece`` characters that follows a simple statement, and not before the first
    indented block (which sets the module's indentation)."""
    first_block = next((i for i, stmt in enumerate(tree.body) if _has_block(stmt)), len(tree.body))
    cuts = [0]
    for i in range(first_block + 1, len(tree.body)):
        stmt, previous = tree.body[i], tree.body[i - 1]
        line = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        at = starts[line - 1]
        if (at - cuts[-1] >= piece and stmt.col_offset == 0 and _is_simple(previous)
                and line > (previous.end_lineno or previous.lineno)):
            cuts.append(at)
    return [*cuts, end]


def _is_simple(stmt: ast.stmt) -> bool:
    """No block of its own: what follows it is no block's to own (libcst gives the lines after
    a block to it by their indentation, and differently at the end of a file)."""
    return not hasattr(stmt, "body") and not hasattr(stmt, "cases")


def _has_block(stmt: ast.stmt) -> bool:
    """A compound statement whose body starts on a line of its own (an indented block)."""
    body = getattr(stmt, "body", None)
    return isinstance(body, list) and bool(body) and body[0].lineno > stmt.lineno


def _joined(text: str, cuts: list[int]) -> cst.Module:
    first = _piece(text[cuts[0]:cuts[1]])
    indent, newline = first.default_indent, first.default_newline
    lead = f"if 1:{newline}{indent}pass{newline}"
    body = list(first.body)
    footer = first.footer
    last = first
    for start, stop in itertools.pairwise(cuts[1:]):
        last = _piece(lead + text[start:stop])
        if (last.default_indent, last.default_newline) != (indent, newline) or last.header or len(last.body) < 2:
            raise _Mismatch
        head = last.body[1]
        body.append(head.with_changes(leading_lines=[*footer, *head.leading_lines]))
        body.extend(last.body[2:])
        footer = last.footer
    return first.with_changes(body=body, footer=footer, has_trailing_newline=last.has_trailing_newline)


def _piece(text: str) -> cst.Module:
    """One piece's module, which must give its text back: libcst loses lines of some
    endings alone (a tab-indented comment after a deeper one) that it keeps mid-file."""
    module = cst.parse_module(text)
    if module.code != text:
        raise _Mismatch
    return module
