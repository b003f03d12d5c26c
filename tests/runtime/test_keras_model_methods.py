"""What the engine does not run of a Keras model says so by name (verify: *unverified*), for
functional, Sequential and subclassed models alike; TF 2.21 runs them, so no conformance program
can hold these."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import run_engine

PROGRAM = """
import numpy as np
import tensorflow as tf
from runtime.errors import Unsupported

inp = tf.keras.Input((2,))
models = [tf.keras.Model(inp, tf.keras.layers.Dense(1)(inp)),
          tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])]
for model in models:
    for method in ("compile", "fit", "evaluate", "predict", "summary", "save_weights"):
        try:
            getattr(model, method)(np.ones((1, 2), np.float32))
        except Unsupported as e:
            print(type(model).__name__, e.api)
"""


def test_unrun_model_methods_are_named_unsupported(tmp_path: Path) -> None:
    program = tmp_path / "methods.py"
    program.write_text(PROGRAM)
    proc = run_engine(program, face="tf2")
    assert proc.returncode == 0, proc.stderr[-2000:]
    methods = ("compile", "fit", "evaluate", "predict", "summary", "save_weights")
    assert proc.stdout.split("\n")[:-1] == [f"{kind} tf.keras.Model.{m}" for kind in ("Functional", "Sequential")
                                            for m in methods]
