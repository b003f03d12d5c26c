"""Shared helpers: fake programs that speak ``runtime.trace`` without the engine."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# A stand-in for engine variables and an optimizer: enough for the trace contract.
FAKE_ENGINE = """
import numpy as np
from runtime import trace

class Var:
    def __init__(self, name, value, trainable=True):
        self.name = name
        self.value = np.asarray(value, np.float32)
        self.trainable = trainable
        trace.variable_created(self)

    def numpy(self):
        return self.value

    def _assign_array(self, value):
        self.value = value

def sgd(pairs, lr):
    trace.optimizer_step(pairs)
    for grad, var in pairs:
        var.value = (var.value - lr * np.asarray(grad, np.float32)).astype(np.float32)
    trace.step_applied()
"""


@pytest.fixture
def write_program(tmp_path: Path):
    """Write ``fake_engine.py`` and a program next to it; return the program's path."""

    def write(source: str, name: str = "prog.py", directory: Path | None = None) -> Path:
        directory = directory or tmp_path
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "fake_engine.py").write_text(FAKE_ENGINE)
        path = directory / name
        path.write_text(textwrap.dedent(source))
        return path

    return write
