"""The generated half of the API table: facts about TensorFlow's API, read from ``api_data.json``.

``tests/record_api_table.py`` writes the file from a real TF 2.21 and its ``tf_upgrade_v2``
(regenerate: ``$TFMIGRATE_TF_PYTHON tests/record_api_table.py``). It holds TensorFlow's own
renames (contrib moves included) whose target TF 2.21 has, its keyword renames and removed
keywords, the TF1 and TF2 signatures of every function whose arguments changed, and TF 2.21's
namespace, so a rewrite can tell whether a name it would write exists. Paths are canonical
(relative to ``tf``, as `imports.canonical` gives them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_PATH = Path(__file__).with_name("api_data.json")


@cache
def _data() -> dict:
    return json.loads(_PATH.read_text(encoding="utf-8"))


def renames() -> dict[str, str]:
    """TF1 name -> its TF 2.21 name (``conj`` -> ``math.conj``)."""
    return _data()["renames"]


def keyword_renames(path: str) -> dict[str, str | None]:
    """Keyword renames of a TF1 function (None: TF2 removed the keyword)."""
    return _data()["keywords"].get(path, {})


@dataclass(frozen=True)
class Parameters:
    """One side of a signature, as recorded."""

    positional: tuple[str, ...]
    names: frozenset[str]
    required: frozenset[str]
    defaults: dict[str, str]  # parameter -> its default as Python source


@dataclass(frozen=True)
class SignatureChange:
    """A function whose TF1 call does not bind to its TF2 form as written."""

    v1: Parameters
    v2: Parameters


def _parameters(entry: dict) -> Parameters:
    return Parameters(tuple(entry["positional"]), frozenset(entry["names"]), frozenset(entry["required"]),
                      entry["defaults"])


@cache
def signature_change(path: str) -> SignatureChange | None:
    entry = _data()["signatures"].get(path)
    if entry is None:
        return None
    return SignatureChange(_parameters(entry["v1"]), _parameters(entry["v2"]))


def _module(path: str) -> str | None:
    """The recorded module at ``path`` through module aliases; None when it is no module."""
    modules, aliases = _data()["modules"], _data()["module_aliases"]
    for _ in range(8):
        if path in modules:
            return path
        head = path
        while head and head not in aliases:
            head = head.rpartition(".")[0]
        if not head:
            return None
        path = aliases[head] + path[len(head):]
    return None


@cache
def exists(path: str) -> bool:
    """Whether ``tf.<path>`` is a TF 2.21 name. Past the last module only the first name is
    judged (``float32.as_numpy_dtype`` is an attribute of a value the namespace has)."""
    module = ""
    for part in filter(None, path.split(".")):  # "" is `tf` itself
        if part.startswith("__"):
            return True  # __version__ and the like are not recorded
        if part not in _names(module):
            return False
        child = f"{module}.{part}" if module else part
        if _module(child) is None:
            return True
        module = child
    return True


@cache
def _names(module: str) -> frozenset[str]:
    return frozenset(_data()["modules"][_module(module) or ""])


def compat_renames() -> dict[str, str]:
    """TF1 name -> another name TF 2.21 keeps only under compat.v1 (``contrib.rnn.LSTMCell`` ->
    ``nn.rnn_cell.LSTMCell``), as TensorFlow's upgrade spec moves it."""
    return _data()["compat_renames"]


def has_tf221_form(path: str) -> bool:
    """Whether TF 2.21 can run the name at all: as it is, under compat.v1, or moved there."""
    return exists(path) or exists(f"compat.v1.{path}") or path in compat_renames()


def call_reading(path: str, positional: int, keywords: frozenset[str]) -> str | None:
    """How a call of ``path`` with that many positional arguments and those keywords reads:
    ``"tf1"`` when only TF1's signature takes it, ``"tf2"`` when only TF2's does,
    ``"ambiguous"`` when both take it but bind some argument to different parameters, None
    when it means the same to both (or the function's arguments did not change)."""
    change = signature_change(path)
    if change is None:
        return None
    v1, v2, renames = change.v1, change.v2, keyword_renames(path)
    binds_v1 = positional <= len(v1.positional) and keywords <= v1.names
    binds_v2 = positional <= len(v2.positional) and keywords <= v2.names
    if (binds_v1 and not binds_v2) or keywords & (v1.names - v2.names):
        return "tf1"
    if binds_v2 and not binds_v1:
        return "tf2"
    same = all(i < len(v2.positional) and renames.get(p, p) == v2.positional[i]
               for i, p in enumerate(v1.positional[:positional])) and not (
        keywords & {k for k, v in renames.items() if v != k})
    return "ambiguous" if binds_v1 and binds_v2 and not same else None
