"""Names a module reads where nothing binds them, and those a rewrite adds (pyflakes' check).

A rewrite that drops the statement binding a name and keeps a read of it (`params =
tf.trainable_variables()` gone, `zip(grads, params)` kept) fails only when the program
runs; pyflakes finds such reads without running anything. Names the input itself leaves
undefined (star imports, a notebook's `display`) are not the rewrite's doing.
"""

from __future__ import annotations

import ast

from pyflakes import checker, messages

from .collector import collector_paused

#: pyflakes' messages for a name read where nothing binds it.
UNDEFINED = (messages.UndefinedName, messages.UndefinedLocal, messages.UndefinedExport)

def undefined_names(code: bytes | str) -> dict[str, tuple[int, int]] | None:
    """Each name the module reads where nothing binds it, with the (line, column) of its first
    read; None when Python cannot parse the module (there is nothing to compare then)."""
    with collector_paused():
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


def new_reads(source: bytes | str, code: bytes | str) -> list[tuple[tuple[int, int], str]] | None:
    """The ((line, column), name) of each first read in ``code`` of a name nothing binds there,
    where ``source`` bound it, in order; None when ``code`` does not parse (and ``source`` does)."""
    after = undefined_names(code)
    if after == {}:  # the usual case: nothing to compare, so the input is not analysed
        return []
    before = undefined_names(source)
    if before is None:  # the input does not parse: there is nothing to compare with
        return []
    if after is None:
        return None
    return sorted((place, name) for name, place in after.items() if name not in before)
