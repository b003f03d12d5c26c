"""The ``tfmigrate`` entry point.

``tfmigrate run PROG.py`` is a launcher, started as often as ``python`` itself: it
goes straight to the engine, without loading the command line (click and the
rewriter). Anything else, including ``run --help`` and every usage error, is
the command line's (``migrate.cli``).
"""

from __future__ import annotations

import os
import sys

FACES = ("auto", "tf1", "tf2")


def _engine_argv(args: list[str]) -> list[str] | None:
    """``[--face F] PROG [ARGS...]`` when that is what ``run`` was given, else None."""
    options = args[:2] if args[:1] == ["--face"] else []
    if options and (len(options) < 2 or options[1] not in FACES):
        return None
    rest = args[len(options) :]
    if not rest or rest[0].startswith("-") or not os.path.isfile(rest[0]):
        return None
    return [*options, *rest]


def main() -> None:
    engine_argv = _engine_argv(sys.argv[2:]) if sys.argv[1:2] == ["run"] else None
    if engine_argv is not None:
        from runtime.run import main as run

        run(engine_argv)
        return
    from migrate.cli import main as cli

    cli()
