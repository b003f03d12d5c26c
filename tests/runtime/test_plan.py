"""Compiled plans (folding, static-shape kernels, dropped dead steps, generated Python) compute
bit for bit what the plain step-by-step plan computes, and fail as it fails."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import run_engine

# Runs each workload with the plan compiler as it is, then with every compile-time optimization
# off (the plain interpreter over one step per op), and prints whether the bytes agree.
PLAIN = """
import runtime.plan as P
P.SPECIALIZE = {}
P._evaluate = lambda *args: False
P._live_steps = lambda steps, *args: steps
P._GENERATE_AFTER = 10 ** 9
"""

TF1 = """
import numpy as np
import tensorflow as tf
import runtime.plan as P

rng = np.random.RandomState(0)
X = rng.rand(5).astype(np.float32); Y = rng.rand(5).astype(np.float32)
XB = rng.rand(8, 6).astype(np.float32); TB = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 8)]


def hexes(values):
    return [np.asarray(v).tobytes().hex() for v in values]


def linreg():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [5]); y = tf.placeholder(tf.float32, [5])
        a = tf.get_variable("a", [], initializer=tf.zeros_initializer)
        b = tf.get_variable("b", [], initializer=tf.zeros_initializer)
        loss = 0.5 * tf.reduce_sum(tf.square(a * x + b - y))
        train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run([train, loss], {x: X, y: Y})[1] for _ in range(40)]
            for _ in range(40):
                sess.run(train, {x: X, y: Y})
            generated = any(p.call is not None for p in sess.graph.plan_cache.values())
            return hexes(losses + sess.run([a, b])), generated


def mlp():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6]); t = tf.placeholder(tf.float32, [None, 3])
        w1 = tf.get_variable("w1", [6, 4]); b1 = tf.get_variable("b1", [4], initializer=tf.zeros_initializer)
        w2 = tf.get_variable("w2", [4, 3]); b2 = tf.get_variable("b2", [3], initializer=tf.zeros_initializer)
        logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=t, logits=logits))
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(80):
                sess.run(train, {x: XB, t: TB})
            try:
                sess.run(train, {x: XB[:2], t: TB[:3]})
                error = None
            except Exception as exc:  # noqa: BLE001 - the error's type is what is compared
                error = type(exc).__name__
            return hexes(sess.run([loss, w1, b1, w2, b2], {x: XB, t: TB})) + [error]


fast = [linreg(), mlp()]
exec(PLAIN)
plain = [linreg(), mlp()]
print("generated", fast[0][1], plain[0][1])
print("error", fast[1][-1])
print("same", fast[0][0] == plain[0][0] and fast[1] == plain[1])
"""

TF2 = """
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
XB = rng.rand(8, 6).astype(np.float32); TB = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 8)]


def mlp():
    w1 = tf.Variable(rng.rand(6, 4).astype(np.float32) - 0.5); b1 = tf.Variable(tf.zeros([4]))
    w2 = tf.Variable(rng.rand(4, 3).astype(np.float32) - 0.5); b2 = tf.Variable(tf.zeros([3]))
    params = [w1, b1, w2, b2]
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 6]), tf.TensorSpec([None, 3])])
    def train(x, t):
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=t, logits=logits))
        opt.apply_gradients(zip(tape.gradient(loss, params), params))
        return loss

    losses = [train(XB, TB).numpy() for _ in range(80)]
    return [np.asarray(v).tobytes().hex() for v in losses + [p.numpy() for p in params]]


state = rng.get_state()
fast = mlp()
exec(PLAIN)
rng.set_state(state)
plain = mlp()
print("same", fast == plain)
"""


def _run(tmp_path: Path, source: str, face: str) -> str:
    program = tmp_path / "prog.py"
    program.write_text(f"PLAIN = {PLAIN!r}\n{source}")
    proc = run_engine(program, face=face)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_session_plans_compute_what_plain_plans_compute(tmp_path: Path) -> None:
    out = _run(tmp_path, TF1, "tf1")
    assert "generated True False" in out, out
    assert "error InvalidArgumentError" in out, out
    assert "same True" in out, out


def test_function_plans_compute_what_plain_plans_compute(tmp_path: Path) -> None:
    assert "same True" in _run(tmp_path, TF2, "tf2")
