"""Engine speed per training step, side by side with real TensorFlow and hand-written NumPy.

    python benchmarks/engine_steps.py [--tf-python PATH] [--record]

Each workload is one program text run three ways where it applies: on the engine
(``python -m runtime.run``), on real TensorFlow 2.21 (``--tf-python`` or
``TFMIGRATE_TF_PYTHON``; TF1 programs through ``tests/tf1_face.py``), and as the
same math written directly in NumPy. Programs time their own training loop (the
imports and graph construction are not counted) and print ``us_per_step``.

Workloads: the seed linear regression (10,000 steps; overhead-bound), a
784-256-10 MLP (batch 64, 200 steps; compute-bound), a small CNN (batch 32,
50 steps), each in TF1 (Session) and TF2 (tf.function + GradientTape) form.
Each cell is the fastest of ``--repeat`` runs (3 by default), as timeit reports, since
other work on the machine only ever adds time. Also the engine's import time, and
``verify`` end to end (skipped with ``--no-verify``) (both programs in their
sandboxes, traced and compared) over every fixture pair: each rewriter golden
``before.py``/``after.py`` and each mutant ``original.py``/``mutant.py``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LINREG_DATA = """
import time
import numpy as np
X = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
X = (X - X.min()) / (X.max() - X.min())
y = (y - y.min()) / (y.max() - y.min())
STEPS = 10000
"""

LINREG_TF1 = LINREG_DATA + """
import tensorflow as tf
X_ = tf.placeholder(tf.float32, [5]); y_ = tf.placeholder(tf.float32, [5])
a = tf.get_variable('a', [], initializer=tf.zeros_initializer)
b = tf.get_variable('b', [], initializer=tf.zeros_initializer)
loss = 0.5 * tf.reduce_sum(tf.square(a * X_ + b - y_))
train = tf.train.GradientDescentOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, feed_dict={X_: X, y_: y})
    start = time.perf_counter()
    for _ in range(STEPS):
        sess.run(train, feed_dict={X_: X, y_: y})
    elapsed = time.perf_counter() - start
    print(sess.run([a, b]))
print("us_per_step", 1e6 * elapsed / STEPS)
"""

LINREG_TF2 = LINREG_DATA + """
import tensorflow as tf
a = tf.Variable(0.0); b = tf.Variable(0.0)
opt = tf.keras.optimizers.SGD(1e-3)
@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)] * 2)
def train(X_, y_):
    with tf.GradientTape() as tape:
        loss = 0.5 * tf.reduce_sum(tf.square(a * X_ + b - y_))
    grads = tape.gradient(loss, [a, b])
    opt.apply_gradients(zip(grads, [a, b]))
train(X, y)
start = time.perf_counter()
for _ in range(STEPS):
    train(X, y)
elapsed = time.perf_counter() - start
print([a.numpy(), b.numpy()])
print("us_per_step", 1e6 * elapsed / STEPS)
"""

LINREG_NUMPY = LINREG_DATA + """
a = np.float32(0); b = np.float32(0); lr = np.float32(1e-3)
start = time.perf_counter()
for _ in range(STEPS):
    err = a * X + b - y
    a = a - lr * np.sum(err * X)
    b = b - lr * np.sum(err)
elapsed = time.perf_counter() - start
print([a, b])
print("us_per_step", 1e6 * elapsed / STEPS)
"""

MLP_DATA = """
import time
import numpy as np
rng = np.random.RandomState(0)
X = rng.rand(64, 784).astype(np.float32)
Y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 64)]
W1_0 = (rng.randn(784, 256) * 0.05).astype(np.float32)
W2_0 = (rng.randn(256, 10) * 0.05).astype(np.float32)
STEPS = 200
"""

MLP_TF1 = MLP_DATA + """
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784]); t = tf.placeholder(tf.float32, [None, 10])
W1 = tf.Variable(W1_0); b1 = tf.Variable(tf.zeros([256]))
W2 = tf.Variable(W2_0); b2 = tf.Variable(tf.zeros([10]))
logits = tf.matmul(tf.nn.relu(tf.matmul(x, W1) + b1), W2) + b2
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=t, logits=logits))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, feed_dict={x: X, t: Y})
    start = time.perf_counter()
    for _ in range(STEPS):
        sess.run(train, feed_dict={x: X, t: Y})
    elapsed = time.perf_counter() - start
    print(sess.run(loss, feed_dict={x: X, t: Y}))
print("us_per_step", 1e6 * elapsed / STEPS)
"""

MLP_TF2 = MLP_DATA + """
import tensorflow as tf
W1 = tf.Variable(W1_0); b1 = tf.Variable(tf.zeros([256]))
W2 = tf.Variable(W2_0); b2 = tf.Variable(tf.zeros([10]))
params = [W1, b1, W2, b2]
opt = tf.keras.optimizers.SGD(0.1)
@tf.function(input_signature=[tf.TensorSpec([None, 784]), tf.TensorSpec([None, 10])])
def train(x, t):
    with tf.GradientTape() as tape:
        logits = tf.matmul(tf.nn.relu(tf.matmul(x, W1) + b1), W2) + b2
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=t, logits=logits))
    opt.apply_gradients(zip(tape.gradient(loss, params), params))
    return loss
train(X, Y)
start = time.perf_counter()
for _ in range(STEPS):
    loss = train(X, Y)
elapsed = time.perf_counter() - start
print(loss.numpy())
print("us_per_step", 1e6 * elapsed / STEPS)
"""

MLP_NUMPY = MLP_DATA + """
W1 = W1_0.copy(); b1 = np.zeros(256, np.float32); W2 = W2_0.copy(); b2 = np.zeros(10, np.float32)
lr = np.float32(0.1)
start = time.perf_counter()
for _ in range(STEPS):
    h_pre = X @ W1 + b1
    h = np.maximum(h_pre, 0)
    logits = h @ W2 + b2
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z); p /= p.sum(axis=1, keepdims=True)
    g = (p - Y) / np.float32(len(X))
    gW2 = h.T @ g; gb2 = g.sum(0)
    gh = (g @ W2.T) * (h_pre > 0)
    gW1 = X.T @ gh; gb1 = gh.sum(0)
    W1 -= lr * gW1; b1 -= lr * gb1; W2 -= lr * gW2; b2 -= lr * gb2
elapsed = time.perf_counter() - start
print("us_per_step", 1e6 * elapsed / STEPS)
"""

CNN_TF1 = """
import time
import numpy as np
import tensorflow as tf
rng = np.random.RandomState(0)
X = rng.rand(32, 28, 28, 1).astype(np.float32)
Y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 32)]
STEPS = 50
x = tf.placeholder(tf.float32, [None, 28, 28, 1]); t = tf.placeholder(tf.float32, [None, 10])
K = tf.Variable((rng.randn(5, 5, 1, 16) * 0.1).astype(np.float32))
W = tf.Variable((rng.randn(14 * 14 * 16, 10) * 0.01).astype(np.float32))
h = tf.nn.max_pool(tf.nn.relu(tf.nn.conv2d(x, K, [1, 1, 1, 1], 'SAME')), [1, 2, 2, 1], [1, 2, 2, 1], 'SAME')
logits = tf.matmul(tf.reshape(h, [-1, 14 * 14 * 16]), W)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=t, logits=logits))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, feed_dict={x: X, t: Y})
    start = time.perf_counter()
    for _ in range(STEPS):
        sess.run(train, feed_dict={x: X, t: Y})
    elapsed = time.perf_counter() - start
    print(sess.run(loss, feed_dict={x: X, t: Y}))
print("us_per_step", 1e6 * elapsed / STEPS)
"""

WORKLOADS = {
    "linreg tf1": (LINREG_TF1, "tf1", LINREG_NUMPY),
    "linreg tf2": (LINREG_TF2, "tf2", LINREG_NUMPY),
    "mlp tf1": (MLP_TF1, "tf1", MLP_NUMPY),
    "mlp tf2": (MLP_TF2, "tf2", MLP_NUMPY),
    "cnn tf1": (CNN_TF1, "tf1", None),
}

_US = re.compile(r"^us_per_step ([0-9.e+-]+)$", re.MULTILINE)


def run(command: list[str], source: str, folder: Path, name: str) -> float | str:
    """µs per step, or the error line when the program failed."""
    path = folder / f"{name.replace(' ', '_')}.py"
    path.write_text(source)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=str(ROOT))
    if command[0] == sys.executable:  # the engine's BLAS setting, for the NumPy baseline too
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
    proc = subprocess.run([*command, str(path)], capture_output=True, text=True, env=env, check=False)
    match = _US.search(proc.stdout)
    if match:
        return float(match.group(1))
    return (proc.stderr.strip().splitlines() or ["failed"])[-1][:80]


def fastest(command: list[str], source: str, folder: Path, name: str, repeat: int) -> float | str:
    """The fastest of ``repeat`` runs, or the first error."""
    times = []
    for _ in range(repeat):
        value = run(command, source, folder, name)
        if isinstance(value, str):
            return value
        times.append(value)
    return min(times)


def import_time() -> float:
    code = "import time; t = time.perf_counter(); import runtime.api; print(time.perf_counter() - t)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT)
    return float(proc.stdout)


def verify_fixtures() -> tuple[int, float, dict[str, int]]:
    """Verify every fixture pair on the engine; the pair count, wall seconds and verdict counts."""
    sys.path.insert(0, str(ROOT))
    from runtime.verdict import Options, verify_files

    pairs = [(d / "before.py", d / "after.py") for d in sorted((ROOT / "fixtures" / "programs").iterdir())
             if (d / "after.py").is_file()]
    pairs += [(d / "original.py", d / "mutant.py") for d in sorted((ROOT / "fixtures" / "mutants").iterdir())
              if (d / "mutant.py").is_file()]
    counts: dict[str, int] = {}
    start = time.perf_counter()
    for old, new in pairs:
        stdin = old.parent / "stdin.txt"
        options = Options(timeout=300, stdin=stdin.read_bytes() if stdin.is_file() else b"")
        status = verify_files(old, new, options).status
        counts[status] = counts.get(status, 0) + 1
    return len(pairs), time.perf_counter() - start, counts


def fmt(value: float | str) -> str:
    return f"{value:,.0f}" if isinstance(value, float) else f"fails: {value}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", default=os.environ.get("TFMIGRATE_TF_PYTHON"))
    parser.add_argument("--record", action="store_true", help="append the results to RESULTS.md")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell; the fastest counts")
    parser.add_argument("--no-verify", action="store_true", help="skip verify over the fixtures")
    args = parser.parse_args()
    load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, (source, face, numpy_source) in WORKLOADS.items():
            engine = fastest([sys.executable, "-m", "runtime.run", "--face", face], source, folder, name, args.repeat)
            real: float | str = "-"
            if args.tf_python:
                command = [args.tf_python, str(ROOT / "tests" / "tf1_face.py")] if face == "tf1" else [args.tf_python]
                real = fastest(command, source, folder, name, args.repeat)
            numpy_us = (fastest([sys.executable], numpy_source, folder, f"{name} numpy", args.repeat)
                        if numpy_source else "-")
            vs_tf = f"{real / engine:.2f}x" if isinstance(real, float) and isinstance(engine, float) else "-"
            vs_np = f"{engine / numpy_us:.2f}x" if isinstance(numpy_us, float) and isinstance(engine, float) else "-"
            rows.append(f"| {name} | {fmt(engine)} | {fmt(real) if real != '-' else '-'} | "
                        f"{fmt(numpy_us) if numpy_us != '-' else '-'} | {vs_tf} | {vs_np} |")
    table = "\n".join(rows)
    report = (
        f"## Engine steps ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n\n"
        f"`python benchmarks/engine_steps.py --repeat {args.repeat}` on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"{' / '.join(f'{x:.1f}' for x in load)} at the start; engine import "
        f"{import_time() * 1000:.0f} ms; each cell the fastest of {args.repeat} runs\n\n"
        "| workload | engine µs/step | TF 2.21 µs/step | NumPy µs/step | TF / engine | engine / NumPy |\n"
        f"|---|---|---|---|---|---|\n{table}\n"
    )
    if not args.no_verify:
        n_pairs, seconds, counts = verify_fixtures()
        verdicts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        report += (
            f"\nverify, end to end, over {n_pairs} fixture pairs (goldens and mutants, one process "
            f"after another): {seconds:.1f} s, {seconds / n_pairs:.2f} s per pair ({verdicts})\n"
        )
    print(report)
    if args.record:
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write("\n" + report)


if __name__ == "__main__":
    main()
