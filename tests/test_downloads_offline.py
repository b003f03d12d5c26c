"""Programs that download data get the synthetic sets, on both faces, through the usual imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
from tensorflow.keras.datasets import cifar10
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
x, y = mnist.train.next_batch(5)
print(x.shape, x.dtype, y.shape, mnist.test.images.shape)
(a, b), (c, d) = tf.keras.datasets.mnist.load_data()
print(a.shape, a.dtype, b.shape)
print(cifar10.load_data()[0][0].shape)
"""


@pytest.mark.parametrize("face", ["tf1", "tf2"])
def test_mnist_tutorial_loader_and_keras_datasets(tmp_path: Path, face: str) -> None:
    program = tmp_path / "download.py"
    program.write_text(PROGRAM)
    done = subprocess.run(
        [sys.executable, "-m", "runtime.run", "--face", face, str(program)],
        capture_output=True, text=True, cwd=tmp_path, check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("(5, 784) float32 (5, 10)")
    assert lines[1].startswith("(") and "uint8" in lines[1]
    assert lines[2].startswith("(") and lines[2].endswith(", 32, 32, 3)")
    assert not (tmp_path / "MNIST_data").exists()  # nothing downloaded, nothing written
