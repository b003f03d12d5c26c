"""The rewriter's own helper definitions, found in a rewrite: the tutorial MNIST loader's
classes and the TF1-layout RNN cells.

A rewrite carries such a helper whole, whatever part of it the program uses, so a program
that never ends an epoch leaves the loader's wrap-around unrun, and ``verify`` (which calls a
rewrite equivalent only when every changed line ran) could vouch for none of it. The helpers
are tested on their own against TF1's behaviour (tests/rewrite/test_rule_tutorial_mnist.py,
test_rule_rnn_cells.py, test_rule_rnn_layers.py and the goldens on real TF), so a top-level
definition that is, node for node, one of them need not run in each program.
"""

from __future__ import annotations

import ast
import textwrap

from .rules import rnn_cells, rnn_layers, tutorial_mnist


def _templates(numpy: str, tf: str) -> list[str]:
    """Every helper as the rewriter writes it for a file with these numpy and TF names."""
    texts = [text for seeded in (False, True) for text in tutorial_mnist.helpers(numpy, tf, seeded).values()]
    for sources in (rnn_cells.SOURCES, rnn_layers.SOURCES):
        texts += [text.replace("tf.", f"{tf}.") if tf != "tf" else text for text in sources.values()]
    return texts


def _bound_to(tree: ast.Module, module: str, default: str) -> set[str]:
    """The names a module is imported as at the top of the file (``default`` when none)."""
    names = {alias.asname or alias.name for stmt in tree.body if isinstance(stmt, ast.Import)
             for alias in stmt.names if alias.name == module}
    return names or {default}


def helper_lines(source: str) -> frozenset[int]:
    """The lines of ``source``'s top-level definitions that are one of the rewriter's helpers."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    known = {
        ast.dump(stmt)
        for numpy in _bound_to(tree, "numpy", "np")
        for tf in _bound_to(tree, "tensorflow", "tf")
        for text in _templates(numpy, tf)
        for stmt in ast.parse(textwrap.dedent(text)).body
    }
    lines: set[int] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.Assign)) and ast.dump(stmt) in known:
            first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))])
            lines.update(range(first, (stmt.end_lineno or stmt.lineno) + 1))
    return frozenset(lines)
