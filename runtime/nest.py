"""Flatten and rebuild nested structures of lists, tuples, namedtuples and dicts (``tf.nest``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def is_nested(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


def _children(x: Any) -> list:
    if isinstance(x, dict):
        return [x[k] for k in sorted(x, key=_sort_key)]
    return list(x)


def _sort_key(k: Any) -> Any:
    return (str(type(k)), k) if not isinstance(k, (int, float, str)) else (0, k) if isinstance(k, (int, float)) else (1, k)


def flatten(structure: Any) -> list:
    out: list = []
    _flatten_into(structure, out)
    return out


def _flatten_into(x: Any, out: list) -> None:
    if is_nested(x):
        for c in _children(x):
            _flatten_into(c, out)
    else:
        out.append(x)


def pack_sequence_as(structure: Any, flat: list) -> Any:
    it = iter(flat)
    return _pack(structure, it)


def _pack(x: Any, it: Iterator) -> Any:
    if isinstance(x, dict):
        vals = {k: _pack(x[k], it) for k in sorted(x, key=_sort_key)}
        return type(x)((k, vals[k]) for k in x) if type(x) is not dict else {k: vals[k] for k in x}
    if _is_namedtuple(x):
        return type(x)(*[_pack(c, it) for c in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_pack(c, it) for c in x)
    return next(it)


def map_structure(fn: Any, *structures: Any) -> Any:
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)])
