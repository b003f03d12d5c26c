"""The moving averages the rewrite defines compute TF1's on TF 2.21: the golden's TF1 program
with its shadows printed (tf.compat.v1's ExponentialMovingAverage, num_updates the global step)
against its rewrite printing the class's shadows.

In the golden, `control_dependencies([train_step, variables_averages_op])` leaves the two ops
unordered: TF1 reads the variables for the averages before the update on most runs, and on some
after. The reference pins the order the rewrite chose (averages first) so it has one answer."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tests import tf_runner

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "programs" / "moving_averages"
SHADOWS_TF1 = (
    "    print(json.dumps([sess.run(variable_averages.average(v)).tolist() for v in tf.trainable_variables()]))\n"
)
SHADOWS_TF2 = "print(json.dumps([variable_averages.average(v).numpy().tolist() for v in inference.trainable_variables]))\n"


def _shadows(python: str, source: str, tmp_path: Path, name: str) -> list:
    path = tmp_path / name
    path.write_text("import json\n" + source)
    proc = tf_runner.run([python, str(path)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.tf
def test_the_defined_class_averages_as_tf1_did(tmp_path: Path) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    before = (GOLDEN / "before.py").read_text().replace(
        "import tensorflow as tf\n", "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n")
    train = "train_step = tf.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=global_step)\n"
    averages = "variables_averages_op = variable_averages.apply(tf.trainable_variables())\n"
    assert train in before and averages in before
    before = before.replace(train, "").replace(
        averages, averages + "with tf.control_dependencies([variables_averages_op]):\n    " + train)
    old = _shadows(python, before + SHADOWS_TF1, tmp_path, "before.py")
    new = _shadows(python, (GOLDEN / "after.py").read_text() + SHADOWS_TF2, tmp_path, "after.py")
    assert len(old) == len(new) == 2
    for a, b in zip(old, new):
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7)
    # the shadows moved off the initial values (0.3, 0.1) and off the trained weights
    assert not np.allclose(old[0], 0.3)
