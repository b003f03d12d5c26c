"""``tf.layers.batch_normalization`` / ``conv2d_transpose`` (TF1 face): TF 2.21 has no tf.layers
(Keras 3), so these pin TF 1.15's layer semantics against NumPy computations."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import run_engine

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
training = tf.placeholder(tf.bool)
y = tf.layers.batch_normalization(x, training=training, momentum=0.9)
img = tf.placeholder(tf.float32, [None, 2, 2, 3])
z = tf.layers.batch_normalization(img, training=True, name="bn4")
up = tf.layers.conv2d_transpose(img, 5, 3, strides=2, padding="same")
up_valid = tf.layers.conv2d_transpose(img, 2, [3, 2], strides=(2, 1))
print([v.name for v in tf.global_variables()])
print([v.name for v in tf.trainable_variables()])
print(len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)), y.shape, up.shape.as_list(), up_valid.shape.as_list())
data = np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5
pic = np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3)
var = {v.name: v for v in tf.global_variables()}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out, _ = sess.run([y, tf.get_collection(tf.GraphKeys.UPDATE_OPS)], {x: data, training: True, img: pic})
    mean, v = data.mean(0), data.var(0)
    print(np.allclose(out, (data - mean) / np.sqrt(v + 1e-3), atol=1e-5))
    mm, mv = sess.run([var["batch_normalization/moving_mean:0"], var["batch_normalization/moving_variance:0"]])
    print(np.allclose(mm, 0.1 * mean), np.allclose(mv, 0.9 + 0.1 * v))
    m4 = sess.run(var["bn4/moving_variance:0"])
    print(np.allclose(m4, 0.99 + 0.01 * pic.reshape(-1, 3).var(0, ddof=1)))
    inference = sess.run(y, {x: data, training: False})
    print(np.allclose(inference, (data - mm) / np.sqrt(mv + 1e-3), atol=1e-5))
    print(sess.run(up, {img: pic}).shape)
'''


def test_batch_normalization_and_conv2d_transpose_follow_tf115(tmp_path: Path) -> None:
    prog = tmp_path / "layers.py"
    prog.write_text(PROGRAM)
    proc = run_engine(prog, face="tf1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == [
        ("['batch_normalization/gamma:0', 'batch_normalization/beta:0', 'batch_normalization/moving_mean:0', "
         "'batch_normalization/moving_variance:0', 'bn4/gamma:0', 'bn4/beta:0', 'bn4/moving_mean:0', "
         "'bn4/moving_variance:0', 'conv2d_transpose/kernel:0', 'conv2d_transpose/bias:0', "
         "'conv2d_transpose_1/kernel:0', 'conv2d_transpose_1/bias:0']"),
        ("['batch_normalization/gamma:0', 'batch_normalization/beta:0', 'bn4/gamma:0', 'bn4/beta:0', "
         "'conv2d_transpose/kernel:0', 'conv2d_transpose/bias:0', 'conv2d_transpose_1/kernel:0', "
         "'conv2d_transpose_1/bias:0']"),
        "4 (None, 3) [None, 4, 4, 5] [None, 5, 3, 2]",
        "True",
        "True True",
        "True",
        "True",
        "(2, 4, 4, 5)",
    ]
