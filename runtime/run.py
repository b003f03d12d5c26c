"""``python -m runtime.run [--face auto|tf1|tf2] PROG.py [ARGS...]``: run a program on the engine."""

from __future__ import annotations

import argparse
import os
import runpy
import sys

from runtime.importer import detect_face, install


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m runtime.run")
    parser.add_argument("--face", choices=["auto", "tf1", "tf2"], default="auto")
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    with open(ns.program, encoding="utf-8") as fh:
        source = fh.read()
    face = detect_face(source) if ns.face == "auto" else ns.face
    install(face)
    sys.argv = [ns.program] + ns.args
    sys.path[0] = os.path.dirname(os.path.abspath(ns.program))
    runpy.run_path(ns.program, run_name="__main__")


if __name__ == "__main__":
    main()
