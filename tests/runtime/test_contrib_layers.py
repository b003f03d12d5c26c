"""``tf.contrib.layers`` (TF1 face): TF 2.21 has no contrib, so these pin TF 1.15's documented
behaviour (names, collections, defaults, regularizer formulas) instead of a recording."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import run_engine

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 6])
h = tf.contrib.layers.fully_connected(x, 4, weights_regularizer=tf.contrib.layers.l2_regularizer(0.5))
out = tf.contrib.layers.fully_connected(h, 2, activation_fn=None)
with tf.variable_scope("scoped", regularizer=tf.contrib.layers.l1_regularizer(0.25)):
    s = tf.contrib.layers.fully_connected(x, 3, scope="fc")
img = tf.placeholder(tf.float32, [None, 5, 5, 2])
conv = tf.contrib.layers.conv2d(img, 3, [3, 3])
flat = tf.contrib.layers.flatten(conv)
print([v.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)])
print(flat.shape.as_list(), len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
reg = tf.losses.get_regularization_loss()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.linspace(-3, 3, 12).reshape(2, 6), img: np.ones((1, 5, 5, 2))}
    var = {v.name: v for v in tf.global_variables()}
    hv, outv, regv, w1, ws, bs, cw, w2 = sess.run(
        [h, out, reg] + [var[n] for n in ("fully_connected/weights:0", "scoped/fc/weights:0",
                                          "scoped/fc/biases:0", "Conv/weights:0", "fully_connected_1/weights:0")],
        feed)
    print(np.allclose(hv, np.maximum(feed[x] @ w1, 0), atol=1e-6), np.allclose(outv, hv @ w2, atol=1e-6))
    expected = 0.5 * 0.5 * np.sum(w1 ** 2) + 0.25 * (np.abs(ws).sum() + np.abs(bs).sum())
    print(np.isclose(regv, expected, rtol=1e-5))
    print(np.abs(w1).max() <= np.sqrt(6.0 / 10), np.abs(cw).max() <= np.sqrt(6.0 / (18 + 27)))
'''


def test_contrib_layers_follow_tf115(tmp_path: Path) -> None:
    prog = tmp_path / "contrib.py"
    prog.write_text(PROGRAM)
    proc = run_engine(prog, face="tf1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == [
        ("['fully_connected/weights:0', 'fully_connected/biases:0', 'fully_connected_1/weights:0', "
        "'fully_connected_1/biases:0', 'scoped/fc/weights:0', 'scoped/fc/biases:0', 'Conv/weights:0', "
        "'Conv/biases:0']"),
        "[None, 75] 3",
        "True True",
        "True",
        "True True",
    ]
