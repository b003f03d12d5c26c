"""``tests/tf1_face.py`` with ``tensorflow.examples.tutorials.mnist`` served from synthetic data.

TF 2.21 no longer ships the tutorial MNIST loader; this runner installs the
project's deterministic stand-in (``runtime/datasets.py``, numpy only) under
that module name, then runs the program through the TF1 face, or, after
``--tf2``, on TF 2 as it is (a rewrite keeps the loader's import).
"""

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.synthetic_data import install

install()
sys.path.pop(0)
if sys.argv[1:2] == ["--tf2"]:  # a rewrite: real TF 2 as it is
    program = sys.argv[2]
    sys.argv = sys.argv[2:]
    sys.path.insert(0, str(Path(program).resolve().parent))
    runpy.run_path(program, run_name="__main__")
else:
    sys.argv = [str(ROOT / "tests" / "tf1_face.py"), *sys.argv[1:]]
    runpy.run_path(sys.argv[0], run_name="__main__")
