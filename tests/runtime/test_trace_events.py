"""The engine reports variable creation and every optimizer step to ``runtime.trace``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.runtime.helpers import ROOT

TF1 = """import numpy as np
import tensorflow as tf
X_ = tf.placeholder(tf.float32, [5])
y_ = tf.placeholder(tf.float32, [5])
a = tf.get_variable('a', dtype=tf.float32, shape=[], initializer=tf.zeros_initializer)
b = tf.get_variable('b', dtype=tf.float32, shape=[], initializer=tf.zeros_initializer)
loss = tf.constant(0.5) * tf.reduce_sum(tf.square(a * X_ + b - y_))
train_op = tf.train.GradientDescentOptimizer(learning_rate=0.01).minimize(loss)
X = np.arange(5, dtype=np.float32) / 4
with tf.Session() as sess:
    tf.global_variables_initializer().run()
    for e in range(100):
        sess.run(train_op, feed_dict={X_: X, y_: 2 * X + 1})
    print(sess.run([a, b]))
"""

TF2 = """import numpy as np
import tensorflow as tf
a = tf.Variable(tf.zeros([], tf.float32), name='a')
b = tf.Variable(tf.zeros([], tf.float32), name='b')
optimizer = tf.keras.optimizers.SGD(0.01)
X = tf.constant(np.arange(5, dtype=np.float32) / 4)

@tf.function
def train_op(X_, y_):
    with tf.GradientTape() as tape:
        loss = 0.5 * tf.reduce_sum(tf.square(a * X_ + b - y_))
    grads = tape.gradient(loss, [a, b])
    optimizer.apply_gradients(zip(grads, [a, b]))

for e in range(100):
    train_op(X, 2 * X + 1)
print([a.numpy(), b.numpy()])
"""


def _trace(
    tmp_path: Path, source: str, max_steps: int | None = None
) -> tuple[dict, subprocess.CompletedProcess]:
    prog = tmp_path / "prog.py"
    prog.write_text(source)
    out = tmp_path / "trace.json"
    env = dict(
        os.environ, PYTHONPATH=str(ROOT), TFMIGRATE_TRACE=str(out), TFMIGRATE_PROGRAM=str(prog)
    )
    if max_steps is not None:
        env["TFMIGRATE_MAX_STEPS"] = str(max_steps)
    proc = subprocess.run(
        [sys.executable, "-m", "runtime.run", str(prog)],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
        check=False,
    )
    return json.loads(out.read_text()), proc


def test_tf1_and_tf2_traces_agree(tmp_path: Path) -> None:
    t1, p1 = _trace(tmp_path, TF1)
    t2, p2 = _trace(tmp_path, TF2)
    assert p1.returncode == 0 and p2.returncode == 0, p1.stderr + p2.stderr
    assert p1.stdout == p2.stdout
    assert len(t1["steps"]) == len(t2["steps"]) == 100
    assert t1["steps"][0]["grads"] == t2["steps"][0]["grads"]
    assert [g["var"] for g in t1["steps"][0]["grads"]] == ["a", "b"]
    assert [v["var"] for v in t1["variables"]] == [v["var"] for v in t2["variables"]] == ["a", "b"]
    assert [v["value"] for v in t1["variables"]] == [v["value"] for v in t2["variables"]]


def test_max_steps_ends_training_and_the_final_print_runs(tmp_path: Path) -> None:
    t1, p1 = _trace(tmp_path, TF1, max_steps=5)
    t2, p2 = _trace(tmp_path, TF2, max_steps=5)
    assert p1.returncode == p2.returncode == 0, p1.stderr + p2.stderr
    assert len(t1["steps"]) == len(t2["steps"]) == 5
    assert t1["stopped_early"] and t2["stopped_early"]
    assert (t1["cut_loops"], t2["cut_loops"]) == ([12], [15])
    assert p1.stdout == p2.stdout and p1.stdout.startswith("[")
    assert [v["value"] for v in t1["variables"]] == [v["value"] for v in t2["variables"]]


SUMMARIES_TF1 = """import tempfile
import tensorflow as tf
w = tf.Variable([1.0, -3.0], name='w')
step_op = tf.assign_add(w, [0.5, 0.5])
tf.summary.scalar('w_norm', tf.norm(w))
tf.summary.histogram('w_hist', w)
merged = tf.summary.merge_all()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(tempfile.mkdtemp())
    for i in range(3):
        sess.run(step_op)
        writer.add_summary(sess.run(merged), 10 * i)
    writer.close()
"""

SUMMARIES_TF2 = """import tempfile
import tensorflow as tf
w = tf.Variable([1.0, -3.0], name='w')
writer = tf.summary.create_file_writer(tempfile.mkdtemp())
for i in range(3):
    w.assign_add([0.5, 0.5])
    with writer.as_default():
        tf.summary.scalar('w_norm', tf.norm(w), step=10 * i)
        tf.summary.histogram('w_hist', w, step=10 * i)
writer.close()
"""


def test_summaries_written_to_event_files_are_traced_alike(tmp_path: Path) -> None:
    t1, p1 = _trace(tmp_path, SUMMARIES_TF1)
    t2, p2 = _trace(tmp_path, SUMMARIES_TF2)
    assert p1.returncode == 0 and p2.returncode == 0, p1.stderr + p2.stderr
    seen = [(s["tag"], s["step"], s["value"]["values"]) for s in t1["summaries"]]
    assert seen == [(s["tag"], s["step"], s["value"]["values"]) for s in t2["summaries"]]
    assert [(tag, step) for tag, step, _ in seen[:2]] == [("w_norm", 0), ("w_hist", 0)]
    assert seen[1][2] == [-2.5, 1.5, 2.0, -1.0, 8.5]  # min, max, count, sum, sum of squares
    assert [s["line"] for s in t1["summaries"]] == [13] * 6


CHECKPOINT_TF1 = """import os, tempfile
import tensorflow as tf
w = tf.Variable([1.0, -3.0], name='w')
b = tf.Variable(0.5, name='b')
grow = tf.assign_add(w, [0.5, 0.5])
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(grow)
    saver.save(sess, os.path.join(tempfile.mkdtemp(), 'model.ckpt'))
"""

CHECKPOINT_TF2 = """import os, tempfile
import tensorflow as tf
w = tf.Variable([1.0, -3.0], name='w')
b = tf.Variable(0.5, name='b')
w.assign_add([0.5, 0.5])
tf.train.Checkpoint(w=w, b=b).save(os.path.join(tempfile.mkdtemp(), 'ckpt'))
"""


def test_saver_and_checkpoint_saves_are_traced_alike(tmp_path: Path) -> None:
    t1, p1 = _trace(tmp_path, CHECKPOINT_TF1)
    t2, p2 = _trace(tmp_path, CHECKPOINT_TF2)
    assert p1.returncode == 0 and p2.returncode == 0, p1.stderr + p2.stderr
    (one,), (two,) = t1["checkpoints"], t2["checkpoints"]
    assert (one["line"], two["line"]) == (10, 6)
    assert [(e["index"], e["value"]["values"]) for e in one["saved"]] == [
        (0, [1.5, -2.5]),
        (1, [0.5]),
    ]
    assert [(e["index"], e["value"]["values"]) for e in two["saved"]] == [
        (0, [1.5, -2.5]),
        (1, [0.5]),
    ]
