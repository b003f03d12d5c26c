"""The graph-mode layer helpers (migrate/graph_layers.py) run on TF 2.21 + Keras 3, where
tf.compat.v1.layers does not: a TF1 conv2d → conv2d_transpose → batch_normalization program,
rewritten, prints TF1's variables and TF1's numbers (checked here with numpy): a shared conv
on reuse, the transposed conv's output size, batch moments in training, and the fused batch
norm's moving-average update with the Bessel-corrected batch variance."""

from __future__ import annotations

import json
import os
import textwrap

import numpy as np
import pytest

from migrate.api import rewrite_source
from tests import tf_runner

PROGRAM = textwrap.dedent("""\
    import json
    import numpy as np
    import tensorflow as tf

    images = np.arange(32, dtype=np.float32).reshape(2, 4, 4, 1) / 10.0
    x = tf.placeholder(tf.float32, [None, 4, 4, 1])
    is_training = tf.placeholder(tf.bool, [])
    h = tf.layers.conv2d(x, 2, 3, padding="same", activation=tf.nn.relu, name="conv",
                         kernel_initializer=tf.constant_initializer(0.1),
                         bias_initializer=tf.constant_initializer(0.5))
    shared = tf.layers.conv2d(x, 2, 3, padding="same", activation=tf.nn.relu, name="conv", reuse=True)
    up = tf.layers.conv2d_transpose(h, 1, 2, strides=2, kernel_initializer=tf.constant_initializer(0.25))
    out = tf.layers.batch_normalization(up, momentum=0.5, training=is_training, name="bn")
    flat = tf.layers.flatten(tf.transpose(out, [0, 3, 1, 2]), data_format="channels_first")
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        batch = sess.run(out, {x: images, is_training: True})
        sess.run(update_ops, {x: images, is_training: True})
        inference, same, flat_out = sess.run([out, shared - h, flat], {x: images, is_training: False})
        moving = sess.run(tf.global_variables()[-2:])
    print(json.dumps({
        "variables": [[v.name, v.shape.as_list(), v in tf.trainable_variables()] for v in tf.global_variables()],
        "shape": up.shape.as_list(), "shared": float(np.abs(same).max()),
        "batch": batch.tolist(), "inference": inference.tolist(), "moving": [m.tolist() for m in moving],
        "flat_shape": flat.shape.as_list(), "flat": float(np.abs(flat_out - inference.reshape(2, -1)).max()),
    }))
    """)


def _expected() -> dict:
    """TF1's numbers: a 3x3 box of 0.1s (zero padded), a 2x2 stride-2 transposed conv of 0.25s
    summing both channels, then batch norm (epsilon 1e-3) whose moving variance takes the
    unbiased batch variance, as TF1's fused kernel gave it for a 4-D input."""
    images = np.arange(32, dtype=np.float64).reshape(2, 4, 4) / 10.0
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)))
    box = sum(padded[:, i:i + 4, j:j + 4] for i in range(3) for j in range(3))
    h = np.maximum(0.1 * box + 0.5, 0.0)  # both filters alike
    up = np.repeat(np.repeat(0.25 * 2 * h, 2, axis=1), 2, axis=2)[..., None]
    mean, var = up.mean(), up.var()
    moving_mean = 0.5 * 0.0 + 0.5 * mean
    moving_var = 0.5 * 1.0 + 0.5 * var * up.size / (up.size - 1)
    return {
        "batch": (up - mean) / np.sqrt(var + 1e-3),
        "inference": (up - moving_mean) / np.sqrt(moving_var + 1e-3),
        "moving": [[moving_mean], [moving_var]],
    }


@pytest.mark.tf
def test_the_rewritten_layers_give_tf1_variables_and_numbers_on_tf_2_21(tmp_path) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    rewrite = rewrite_source(PROGRAM).code
    for helper in ("tf1_conv2d", "tf1_conv2d_transpose", "tf1_batch_normalization", "tf1_flatten"):
        assert f"def {helper}(" in rewrite
    assert "h = tf1_conv2d(x, 2, 3," in rewrite and "up = tf1_conv2d_transpose(h, 1, 2," in rewrite
    assert "out = tf1_batch_normalization(up, momentum=0.5, training=is_training" in rewrite
    (tmp_path / "after.py").write_text(rewrite)
    proc = tf_runner.run([python, str(tmp_path / "after.py")], cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["variables"] == [
        ["conv/kernel:0", [3, 3, 1, 2], True], ["conv/bias:0", [2], True],
        ["conv2d_transpose/kernel:0", [2, 2, 1, 2], True], ["conv2d_transpose/bias:0", [1], True],
        ["bn/gamma:0", [1], True], ["bn/beta:0", [1], True],
        ["bn/moving_mean:0", [1], False], ["bn/moving_variance:0", [1], False],
    ]
    assert got["shape"] == [None, 8, 8, 1]
    assert got["flat_shape"] == [None, 64] and got["flat"] == 0.0  # channels back last, then flat
    assert got["shared"] == 0.0
    expected = _expected()
    for key in ("batch", "inference", "moving"):
        np.testing.assert_allclose(np.array(got[key]), np.array(expected[key]), rtol=0, atol=1e-5)
    # the moving variance took the Bessel-corrected variance: the biased one is 3.8e-4 away
    assert abs(got["moving"][1][0] - expected["moving"][1][0]) < 1e-6
