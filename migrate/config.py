"""``[tool.tfmigrate]`` in pyproject.toml: the settings a project keeps with its code.

Command-line options override the file; an unknown key, a wrong type or a value out of
range is a configuration error (exit 2), never silently ignored.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


class ConfigError(Exception):
    """A configuration file or option the tool cannot use; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    """Every setting with its default; keys in the file use dashes (``max-steps``)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    rtol: float = 1e-4
    atol: float = 1e-6
    max_steps: int | None = None
    timeout: float = 300.0
    jobs: int | None = None
    cache_dir: str = ".tfmigrate_cache"
    source: Path | None = field(default=None, compare=False)

    def replace(self, **changes: Any) -> Settings:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update({k: v for k, v in changes.items() if v is not None})
        return Settings(**values)


_TYPES: dict[str, tuple[type, ...]] = {
    "select": (list,),
    "ignore": (list,),
    "exclude": (list,),
    "extend_exclude": (list,),
    "respect_gitignore": (bool,),
    "rtol": (float, int),
    "atol": (float, int),
    "max_steps": (int,),
    "timeout": (float, int),
    "jobs": (int,),
    "cache_dir": (str,),
}


#: More worker processes than this is a typing slip, not a machine (the run also caps the
#: workers at one per file and four per core).
MAX_JOBS = 1024


def _finite_at_least_zero(value: float) -> bool:
    return math.isfinite(value) and value >= 0


#: What each value must be, beyond its type: a test and the words for it.
_RANGES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "rtol": (_finite_at_least_zero, "a finite number >= 0"),
    "atol": (_finite_at_least_zero, "a finite number >= 0"),
    "timeout": (lambda v: math.isfinite(v) and v > 0, "a finite number of seconds > 0"),
    "max_steps": (lambda v: v >= 1, "an integer >= 1"),
    "jobs": (lambda v: 1 <= v <= MAX_JOBS, f"an integer >= 1 and <= {MAX_JOBS}"),
    "cache_dir": (lambda v: bool(v.strip()), "a non-empty path"),
}


def _as_float(value: float) -> float:
    """A TOML number as a float; an integer too big for one is infinite (and so out of range)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def out_of_range(name: str, value: Any) -> str | None:
    """What ``value`` must be when it is not a valid ``name`` (underscored), else None.

    The command line's options check their values with it too, so both say the same."""
    check = _RANGES.get(name)
    if check is None or check[0](value):
        return None
    return f"must be {check[1]}"


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above ``start`` (a file or a folder)."""
    start = Path(os.path.abspath(start))
    folder = start if start.is_dir() else start.parent
    for candidate in [folder, *folder.parents]:
        path = candidate / "pyproject.toml"
        if path.is_file():
            return path
    return None


def load_settings(pyproject: Path | None) -> Settings:
    """Read ``[tool.tfmigrate]``; a missing file or table gives the defaults."""
    if pyproject is None:
        return Settings()
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{pyproject}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{pyproject}: invalid TOML: {error}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{pyproject}: `tool` must be a table ([tool.tfmigrate]), not {tool!r}")
    table = tool.get("tfmigrate", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.tfmigrate] must be a table")
    values: dict[str, Any] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        if name not in _TYPES:
            known = ", ".join(sorted(k.replace("_", "-") for k in _TYPES))
            raise ConfigError(f"{pyproject}: unknown key {key!r} in [tool.tfmigrate] (known: {known})")
        expected = _TYPES[name]
        if isinstance(value, bool) and bool not in expected:
            raise ConfigError(f"{pyproject}: [tool.tfmigrate] {key} must be {expected[0].__name__}")
        if not isinstance(value, expected):
            raise ConfigError(f"{pyproject}: [tool.tfmigrate] {key} must be {expected[0].__name__}")
        if isinstance(value, list):
            if not all(isinstance(item, str) for item in value):
                raise ConfigError(f"{pyproject}: [tool.tfmigrate] {key} must be a list of strings")
            value = tuple(value)
        elif expected[0] is float:
            value = _as_float(value)
        wrong = out_of_range(name, value)
        if wrong is not None:
            raise ConfigError(f"{pyproject}: [tool.tfmigrate] {key} = {value!r} is invalid: it {wrong}")
        values[name] = value
    return Settings(**values, source=pyproject)
