"""Continuation lines kept under their bracket when the rewrite moves the bracket.

Code wrapped with a visual indent lines its continuation lines up with the first token after an
open bracket:

    h = tf.layers.dense(x, 5, activation=tf.nn.tanh,
                        kernel_initializer=tf.constant_initializer(0.1))

A rewrite that renames the call (`tf.keras.layers.Dense(...)`, `tf1_dense(...)`) moves the
bracket, and the line under it would stay where it was. Such a line moves with its bracket
again: only its indentation inside brackets, which Python ignores. A line the input itself had
out of line stays as the user wrote it.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Iterator


def _continuations(source: str) -> Iterator[tuple[int, int, int, int]]:
    """(row, column, column of its bracket's first token, row of the bracket) of each line
    continuing an open bracket whose first token follows the bracket on its line; rows from 1."""
    stack: list[tuple[int, int | None]] = []  # (row of the bracket, column its lines align to)
    last_row = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            continue
        row, col = tok.start
        if stack and row != last_row and stack[-1][1] is not None and tok.string not in ")]}":
            yield row, col, stack[-1][1], stack[-1][0]
        if stack and stack[-1][1] is None and row == stack[-1][0]:
            stack[-1] = (stack[-1][0], col)
        if tok.type == tokenize.OP and tok.string in "([{":
            stack.append((row, None))
        elif tok.type == tokenize.OP and tok.string in ")]}" and stack:
            stack.pop()
        last_row = tok.end[0]


def _out_of_line(source: str) -> set[str]:
    """The continuation lines of ``source`` (stripped) that are not under their bracket: the
    user's own layout, left as it is."""
    lines = source.split("\n")
    return {lines[row - 1].strip() for row, col, align, _ in _continuations(source) if col != align}


def realign_continuations(source: str, code: str) -> str:
    """``code`` with each continuation line the input had under its bracket put back under it."""
    try:
        moves = list(_continuations(code))
        if all(col == align for _, col, align, _ in moves):
            return code
        users = _out_of_line(source)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    lines = code.split("\n")  # tokenize's rows: only LF ends one (not U+2028, nor a form feed)
    shift: dict[int, int] = {}  # row -> columns its line moved: a bracket on it moved as much
    for row, col, align, opener in moves:
        target = align + shift.get(opener, 0)
        line = lines[row - 1]
        indent = len(line) - len(line.lstrip(" "))
        if col == target or col != indent or line[indent:indent + 1] == "\t" or line.strip() in users:
            continue  # in place; after other code on its line; tab-indented; out of line in the input
        lines[row - 1] = " " * target + line[indent:]
        shift[row] = target - col
    return "\n".join(lines)
