"""What a library module's rewrite takes from its importers (TF104).

A module no code of the program imports is rewritten for the importers it will have: its
graph-building functions become Keras models and the helpers inlined into them disappear.
The converting passes state each model's new call; this says which of the names the module
used to offer it offers no longer, so whoever imports them knows before an ImportError does.
"""

from __future__ import annotations

import ast

from .report import Finding
from .rules.variable_scope import RULE


def _top_names(tree: ast.Module) -> dict[str, int]:
    """Public names bound at the module's top level -> the line binding them first."""
    names: dict[str, int] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found = [stmt.name]
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            found = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        else:
            continue
        for name in found:
            if not name.startswith("_"):
                names.setdefault(name, stmt.lineno)
    return names


def gone_names(before: str, after: str, findings: list[Finding]) -> list[Finding]:
    """One finding per public top-level name of `before` that `after` no longer binds (and no
    finding of `findings` states the new call of already)."""
    kept = _top_names(ast.parse(after))
    kept.update({f.message.split(" ", 1)[0]: 0 for f in findings if " is not called in this module: " in f.message})
    return [
        Finding(RULE.id, line, 0, f"{name} is no longer defined here (its code moved into the models that "
                "used it): code importing it must change", "info")
        for name, line in _top_names(ast.parse(before)).items() if name not in kept
    ]
