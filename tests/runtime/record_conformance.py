"""Record the expected outputs of the conformance programs from a REAL TensorFlow.

Usage: ``python tests/runtime/record_conformance.py /path/to/tf221/python [names...]``

For each ``tests/runtime/conformance/NAME.py`` this writes ``NAME.stdout`` (stdout) and
``NAME.result`` (exit status and exception type). Programs marked ``# face: tf1`` are written
for the TF 1.x face (``import tensorflow as tf`` with 1.x names); real TF 2.21 runs them as
``tensorflow.compat.v1`` in graph mode, which is what TF 1.x did.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parents[2]
if str(ROOT_DIR) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT_DIR))
from tests import tf_runner

HERE = Path(__file__).resolve().parent
DIRS = [HERE / "conformance"]
#: TF 2.21 no longer depends on TensorBoard, and ``tf.summary.scalar`` & co. raise
#: ``TBNotInstalledError`` without it. Programs marked ``# needs: tensorboard`` run with this
#: directory (``pip install --no-deps --target DIR tensorboard``) on PYTHONPATH.
TENSORBOARD = os.environ.get("TFMIGRATE_TENSORBOARD_PATH",
                             os.path.expanduser("~/.cache/tfmigrate/tensorboard"))


def exception_type(stderr: str) -> str:
    """The class name of the exception that ended a program: the first unindented line after
    the last ``Traceback`` header (later lines may be a long multi-line message)."""
    lines = stderr.splitlines()
    starts = [i for i, x in enumerate(lines) if x.startswith("Traceback (most recent call last)")]
    if not starts:
        return ""
    for line in lines[starts[-1] + 1:]:
        if line and not line.startswith(" "):
            m = re.match(r"([\w.]+)(:|$)", line)
            return m.group(1).rsplit(".", 1)[-1] if m else ""
    return ""


RNN_REFERENCE = HERE / "tf1_rnn_reference.py"


def tf1_source(source: str) -> str:
    header = "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"
    if "# tf1: rnn cells" in source:  # TF 2.21 removed the cells; see tf1_rnn_reference.py
        header += f"import runpy\nrunpy.run_path({str(RNN_REFERENCE)!r})['install'](tf)\n"
    return source.replace("import tensorflow as tf\n", header, 1)


def run_on_tf(python: str, program: Path) -> subprocess.CompletedProcess:
    """Run one program on real TF, TF 1.x-era programs through ``tf.compat.v1`` graph mode."""
    source = program.read_text()
    stdin_file = program.with_suffix(".stdin")
    stdin = stdin_file.read_text() if stdin_file.exists() else ""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    if "# needs: tensorboard" in source:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [TENSORBOARD, env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / program.name
        target.write_text(tf1_source(source) if "# face: tf1" in source else source)
        return tf_runner.run([python, str(target)], input=stdin, env=env, cwd=tmp, timeout=600)


def record(python: str, program: Path) -> None:
    proc = run_on_tf(python, program)
    program.with_suffix(".stdout").write_text(proc.stdout)
    program.with_suffix(".result").write_text(f"{proc.returncode} {exception_type(proc.stderr)}\n")
    print(f"{program.name}: rc={proc.returncode} {exception_type(proc.stderr)}")


def main() -> None:
    python = sys.argv[1]
    names = set(sys.argv[2:])
    for d in DIRS:
        for program in sorted(d.glob("*.py")):
            if not names or program.stem in names:
                record(python, program)


if __name__ == "__main__":
    main()
