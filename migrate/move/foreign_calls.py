"""Graph code built by another module's function: outside what one file's rewrite can see.

`logit = model.inference(images, batch_size, n_classes)` runs code of `model.py`, which may
create variables (a Saver saved them, `minimize` trained them) and build ops. The rewrite of
this file alone cannot know them: a Checkpoint over "the program's variables" would miss them,
a tape would not train them, a step function would create them on each trace. Such a call
keeps the file in graph mode, with a finding naming it; the standard library and NumPy
(which build no graph) are not foreign.
"""

from __future__ import annotations

import sys

import libcst as cst

from ..graph import calls_in, memoised_walk
from ..imports import dotted
from ..report import Unsupported
from ..rules.session import RULE as SESSION_RULE
from .state import Item, MoveState

#: Libraries that take and give arrays, not graphs.
_ARRAY_LIBRARIES = frozenset({"numpy", "scipy", "pandas", "sklearn", "matplotlib", "PIL", "cv2"})


def _imported(module: cst.Module) -> dict[str, str]:
    """Local names the module's top-level imports bind, by the module they come from
    (`.` leads a relative one)."""
    names: dict[str, str] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    path = ".".join(dotted(alias.name) or [])
                    local = alias.asname.name.value if alias.asname else path.split(".")[0]  # type: ignore[union-attr]
                    names[local] = path if alias.asname else local
            elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                path = "." * len(small.relative) + ".".join(dotted(small.module) or []) if small.module else "." * len(small.relative)
                for alias in small.names:
                    local = alias.asname.name.value if alias.asname else alias.name.value  # type: ignore[union-attr]
                    names[local] = path
    return names


def foreign(path: str) -> bool:
    """A module of the program's own or of a library that may build graph code."""
    top = path.split(".")[0]
    return path.startswith(".") or (top not in ("tensorflow", "absl", *_ARRAY_LIBRARIES)
                                    and top not in sys.stdlib_module_names)


def check_foreign_calls(move: MoveState, value: cst.BaseExpression, item: Item) -> None:
    """Refuse graph code that calls another module's function on graph values."""
    imported = memoised_walk("imported", move.module, _imported)
    for call in calls_in(value):
        parts = dotted(call.func) or []
        path = imported.get(parts[0]) if parts else None
        if path is None or not foreign(path):
            continue
        if any(move.scope.deps_of(arg.value) for arg in call.args):
            raise Unsupported(SESSION_RULE.id, item.line, f"{'.'.join(parts)}() of module {path} builds graph code "
                              "this file's rewrite cannot see (its variables, its ops)")
