"""``python -m runtime.run [--face auto|tf1|tf2] PROG.py [ARGS...]``: run a program on the engine.

The program runs as ``__main__`` with its own argv, stdin and ``sys.path[0]``; an uncaught
exception prints a traceback that starts at the program's frame and exits with status 1, as
plain Python does. Under a ``--max-steps`` budget the program's training loops end after the
budget's last step and the rest of it runs (``runtime.step_budget``); a budget that has to stop
the program itself (``trace.StopProgram``) ends it with status 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback

import numpy as np

from runtime.importer import detect_face, install
from runtime.step_budget import run_path
from runtime.trace import StopProgram


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m runtime.run")
    parser.add_argument("--face", choices=["auto", "tf1", "tf2"], default="auto")
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    path = os.path.abspath(ns.program)
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    face = detect_face(source) if ns.face == "auto" else ns.face
    install(face)
    np.seterr(all="ignore")  # TF yields inf/nan silently; NumPy would warn on stderr
    sys.argv = [ns.program, *ns.args]
    sys.path[0] = os.path.dirname(path)
    try:
        run_path(path)
    except StopProgram:
        sys.exit(0)
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:  # noqa: BLE001 - report like the interpreter, then exit 1
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
        sys.exit(1)


if __name__ == "__main__":
    main()
