"""TF 2.21's public API as recorded from a real installation (``tf221_api.json``).

Per module path (``tf.nn``): the real module's name, its public names, and each callable's
signature in Python syntax without defaults (``"x, /, y=, *args, k=, **kw"``). A module reached
by two paths is recorded once; the other path says ``{"same_as": path}``, and so do all paths
under it. ``tests/record_tf_api.py`` writes the file; the facade reads it one module at a time
(each module is one line), so an engine run parses only the modules it touches.
"""

from __future__ import annotations

import inspect
import json
import os
from dataclasses import dataclass, field

PATH = os.path.join(os.path.dirname(__file__), "tf221_api.json")


@dataclass(frozen=True)
class ModuleInfo:
    """One real module: its ``__name__``, public names and callables' signatures (as text)."""

    module: str
    names: frozenset[str]
    signatures: dict[str, str] = field(default_factory=dict)


_LINES: dict[str, str] | None = None
_MODULES: dict[str, ModuleInfo | None] = {}
_SIGNATURES: dict[str, inspect.Signature] = {}


def _lines() -> dict[str, str]:
    global _LINES
    if _LINES is None:
        with open(PATH, encoding="utf-8") as fh:
            rows = fh.read().split("\n")
        _LINES = {}
        for row in rows:
            if row.startswith('"'):
                key, _, rest = row.partition(": ")
                _LINES[json.loads(key)] = rest.rstrip(",")
    return _LINES


def _canonical(path: str) -> str | None:
    """``path`` with every ``same_as`` prefix replaced; None when TF 2.21 has no such module."""
    lines = _lines()
    for _ in range(8):  # aliases never chain deeper than this
        head = path
        while head and head not in lines:
            head = head.rpartition(".")[0]
        if not head:
            return None
        target = json.loads(lines[head]).get("same_as") if lines[head].startswith('{"same_as"') else None
        if target is None:
            return path if head == path else None
        path = target + path[len(head):]
    return None


def module(path: str) -> ModuleInfo | None:
    """The recorded module at ``path`` (``tf.compat.v1.keras.layers`` resolves to ``tf.keras.layers``)."""
    if path not in _MODULES:
        real = _canonical(path)
        info = None
        if real is not None:
            entry = json.loads(_lines()[real])
            info = ModuleInfo(entry["module"], frozenset(entry["names"]), entry["signatures"])
        _MODULES[path] = info
    return _MODULES[path]


def paths() -> list[str]:
    """Every recorded module path (aliases included, not the paths under them)."""
    return sorted(_lines())


#: The default of every parameter rebuilt from the manifest: only *whether* there is one is recorded.
RECORDED_DEFAULT = object()
_KINDS = inspect.Parameter


def parse_signature(text: str) -> inspect.Signature:
    """The ``inspect.Signature`` a manifest signature text stands for (defaults are placeholders)."""
    if text in _SIGNATURES:
        return _SIGNATURES[text]
    params: list[inspect.Parameter] = []
    kind = _KINDS.POSITIONAL_OR_KEYWORD
    for part in filter(None, text.split(", ")):
        if part == "/":
            params = [p.replace(kind=_KINDS.POSITIONAL_ONLY) for p in params]
        elif part == "*":
            kind = _KINDS.KEYWORD_ONLY
        elif part.startswith("**"):
            params.append(inspect.Parameter(part[2:], _KINDS.VAR_KEYWORD))
        elif part.startswith("*"):
            params.append(inspect.Parameter(part[1:], _KINDS.VAR_POSITIONAL))
            kind = _KINDS.KEYWORD_ONLY
        elif part.endswith("="):
            params.append(inspect.Parameter(part[:-1], kind, default=RECORDED_DEFAULT))
        else:
            params.append(inspect.Parameter(part, kind))
    sig = _SIGNATURES[text] = inspect.Signature(params)
    return sig


def signature_text(obj: object) -> str | None:
    """``obj``'s parameters in the manifest's syntax, or None when it has no signature."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    parts: list[str] = []
    star_done = False
    params = list(sig.parameters.values())
    for i, p in enumerate(params):
        if p.kind is _KINDS.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            star_done = True
        elif p.kind is _KINDS.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        else:
            if p.kind is _KINDS.KEYWORD_ONLY and not star_done:
                parts.append("*")
                star_done = True
            parts.append(p.name + ("=" if p.default is not p.empty else ""))
        if p.kind is _KINDS.POSITIONAL_ONLY and (i + 1 == len(params) or params[i + 1].kind is not _KINDS.POSITIONAL_ONLY):
            parts.append("/")
    return ", ".join(parts)
