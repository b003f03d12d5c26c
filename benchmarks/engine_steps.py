"""Engine speed per training step, side by side with real TensorFlow and hand-written NumPy.

    python benchmarks/engine_steps.py [--tf-python PATH] [--only WORKLOAD] [--record]

Each workload is a model whose ``step()`` runs one training step, run three ways where it
applies: on the engine (``python -m runtime.run``), on real TensorFlow 2.21 (``--tf-python``
or ``TFMIGRATE_TF_PYTHON``; TF1 programs through ``tests/tf1_face.py``), and as the same math
written directly in NumPy. Imports and graph construction are not timed; a program times
blocks of steps after a warm-up and reports its fastest block. The engine and NumPy are
also timed by turns in one engine process: a fresh process's speed on these machines varies
by more than the gap being measured (a NumPy-only process read 930 to 1,370 µs per MLP step
across runs), while two loops taking turns in one process share its allocator, cache and load.

Workloads: the seed linear regression (10,000 steps; overhead-bound; also run eagerly, 2,000
steps, where every step goes through the facade's functions again), a
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
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each workload: shared data, a TensorFlow model whose `step()` runs one training step, and
# the same math by hand in NumPy as `numpy_step()`. The timing code is shared by every run.
# A TF1 model's step: `train` run in one session, fed `feed`.
TF1_STEP = """
sess = tf.Session()
sess.run(tf.global_variables_initializer())
def step():
    sess.run(train, feed_dict=feed)
"""

LINREG_DATA = """
import numpy as np
X = np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32)
y = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
X = (X - X.min()) / (X.max() - X.min())
y = (y - y.min()) / (y.max() - y.min())
"""

LINREG_TF1 = """
import tensorflow as tf
X_ = tf.placeholder(tf.float32, [5]); y_ = tf.placeholder(tf.float32, [5])
a = tf.get_variable('a', [], initializer=tf.zeros_initializer)
b = tf.get_variable('b', [], initializer=tf.zeros_initializer)
loss = 0.5 * tf.reduce_sum(tf.square(a * X_ + b - y_))
train = tf.train.GradientDescentOptimizer(1e-3).minimize(loss)
feed = {X_: X, y_: y}
""" + TF1_STEP

LINREG_TF2 = """
import tensorflow as tf
a = tf.Variable(0.0); b = tf.Variable(0.0)
opt = tf.keras.optimizers.SGD(1e-3)
@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)] * 2)
def train(X_, y_):
    with tf.GradientTape() as tape:
        loss = 0.5 * tf.reduce_sum(tf.square(a * X_ + b - y_))
    grads = tape.gradient(loss, [a, b])
    opt.apply_gradients(zip(grads, [a, b]))
def step():
    train(X, y)
"""

# The same step run eagerly: every step calls the facade's functions again (no tf.function trace).
LINREG_EAGER = """
import tensorflow as tf
a = tf.Variable(0.0); b = tf.Variable(0.0)
opt = tf.keras.optimizers.SGD(1e-3)
def step():
    with tf.GradientTape() as tape:
        loss = 0.5 * tf.reduce_sum(tf.square(a * X + b - y))
    grads = tape.gradient(loss, [a, b])
    opt.apply_gradients(zip(grads, [a, b]))
"""

LINREG_NUMPY = """
na = np.float32(0); nb = np.float32(0); nlr = np.float32(1e-3)
def numpy_step():
    global na, nb
    err = na * X + nb - y
    na = na - nlr * np.sum(err * X)
    nb = nb - nlr * np.sum(err)
"""

MLP_DATA = """
import numpy as np
rng = np.random.RandomState(0)
X = rng.rand(64, 784).astype(np.float32)
Y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 64)]
W1_0 = (rng.randn(784, 256) * 0.05).astype(np.float32)
W2_0 = (rng.randn(256, 10) * 0.05).astype(np.float32)
"""

MLP_TF1 = """
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784]); t = tf.placeholder(tf.float32, [None, 10])
W1 = tf.Variable(W1_0); b1 = tf.Variable(tf.zeros([256]))
W2 = tf.Variable(W2_0); b2 = tf.Variable(tf.zeros([10]))
logits = tf.matmul(tf.nn.relu(tf.matmul(x, W1) + b1), W2) + b2
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=t, logits=logits))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
feed = {x: X, t: Y}
""" + TF1_STEP

MLP_TF2 = """
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
def step():
    train(X, Y)
"""

MLP_NUMPY = """
nW1 = W1_0.copy(); nb1 = np.zeros(256, np.float32); nW2 = W2_0.copy(); nb2 = np.zeros(10, np.float32)
nlr = np.float32(0.1)
def numpy_step():
    global nW1, nb1, nW2, nb2
    h_pre = X @ nW1 + nb1
    h = np.maximum(h_pre, 0)
    logits = h @ nW2 + nb2
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z); p /= p.sum(axis=1, keepdims=True)
    g = (p - Y) / np.float32(len(X))
    gW2 = h.T @ g; gb2 = g.sum(0)
    gh = (g @ nW2.T) * (h_pre > 0)
    gW1 = X.T @ gh; gb1 = gh.sum(0)
    nW1 -= nlr * gW1; nb1 -= nlr * gb1; nW2 -= nlr * gW2; nb2 -= nlr * gb2
"""

CNN_DATA = """
import numpy as np
rng = np.random.RandomState(0)
X = rng.rand(32, 28, 28, 1).astype(np.float32)
Y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 32)]
"""

CNN_TF1 = """
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28, 28, 1]); t = tf.placeholder(tf.float32, [None, 10])
K = tf.Variable((rng.randn(5, 5, 1, 16) * 0.1).astype(np.float32))
W = tf.Variable((rng.randn(14 * 14 * 16, 10) * 0.01).astype(np.float32))
h = tf.nn.max_pool(tf.nn.relu(tf.nn.conv2d(x, K, [1, 1, 1, 1], 'SAME')), [1, 2, 2, 1], [1, 2, 2, 1], 'SAME')
logits = tf.matmul(tf.reshape(h, [-1, 14 * 14 * 16]), W)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=t, logits=logits))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
feed = {x: X, t: Y}
""" + TF1_STEP

# The timed loop: after a warm-up, blocks of steps; the fastest block counts, since other work
# on the machine only ever adds time. `us_per_step` lines are what the runner reads.
TIMER = """
import time
def fastest_block(fn, steps):
    for _ in range(3):
        fn()
    per = max(1, steps // 10)
    best = float("inf")
    for _ in range(10):
        start = time.perf_counter()
        for _ in range(per):
            fn()
        best = min(best, (time.perf_counter() - start) / per)
    return best
"""


def timed(data: str, setup: str, fn: str, steps: int) -> str:
    """A program that builds the model and prints its µs per step."""
    return data + setup + TIMER + f'print("us_per_step", 1e6 * fastest_block({fn}, {steps}))\n'


def interleaved(data: str, setup: str, numpy_setup: str, steps: int) -> str:
    """One program timing the model's step and the NumPy step by turns, block by block, so both
    run in one process, on the same allocator and under the same load."""
    return data + numpy_setup + setup + TIMER + f"""
engine, numpy = float("inf"), float("inf")
for _ in range(5):
    engine = min(engine, fastest_block(step, {steps} // 5))
    numpy = min(numpy, fastest_block(numpy_step, {steps} // 5))
print("us_per_step", 1e6 * engine)
print("numpy_us_per_step", 1e6 * numpy)
"""


@dataclass(frozen=True)
class Workload:
    data: str
    setup: str
    face: str
    numpy_setup: str | None
    steps: int


WORKLOADS = {
    "linreg tf1": Workload(LINREG_DATA, LINREG_TF1, "tf1", LINREG_NUMPY, 10000),
    "linreg tf2": Workload(LINREG_DATA, LINREG_TF2, "tf2", LINREG_NUMPY, 10000),
    "linreg eager": Workload(LINREG_DATA, LINREG_EAGER, "tf2", LINREG_NUMPY, 2000),
    "mlp tf1": Workload(MLP_DATA, MLP_TF1, "tf1", MLP_NUMPY, 200),
    "mlp tf2": Workload(MLP_DATA, MLP_TF2, "tf2", MLP_NUMPY, 200),
    "cnn tf1": Workload(CNN_DATA, CNN_TF1, "tf1", None, 50),
}

_TIMES = re.compile(r"^(\w*us_per_step) ([0-9.e+-]+)$", re.MULTILINE)


def run(command: list[str], source: str, folder: Path, name: str) -> dict[str, float] | str:
    """The µs-per-step lines a program printed, by name, or the error line when it failed."""
    path = folder / f"{name.replace(' ', '_')}.py"
    path.write_text(source)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=str(ROOT))
    if command[0] == sys.executable:  # the engine's BLAS setting, for the NumPy baseline too
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
    proc = subprocess.run([*command, str(path)], capture_output=True, text=True, env=env, check=False)
    found = {key: float(value) for key, value in _TIMES.findall(proc.stdout)}
    if proc.returncode == 0 and found:
        return found
    return (proc.stderr.strip().splitlines() or ["failed"])[-1][:80]


def fastest(command: list[str], source: str, folder: Path, name: str, repeat: int) -> dict[str, float] | str:
    """Each printed time's fastest over ``repeat`` runs, or the first error."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        found = run(command, source, folder, name)
        if isinstance(found, str):
            return found
        for key, value in found.items():
            best[key] = min(value, best.get(key, value))
    return best


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
    return f"{value:,.0f}" if isinstance(value, float) else "-" if value == "-" else f"fails: {value}"


def ratio(num: float | str, den: float | str) -> str:
    return f"{num / den:.2f}x" if isinstance(num, float) and isinstance(den, float) else "-"


def us(found: dict[str, float] | str, key: str = "us_per_step") -> float | str:
    return found if isinstance(found, str) else found[key]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", default=os.environ.get("TFMIGRATE_TF_PYTHON"))
    parser.add_argument("--record", action="store_true", help="append the results to RESULTS.md")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell; the fastest counts")
    parser.add_argument("--no-verify", action="store_true", help="skip verify over the fixtures")
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS), help="run only these workloads")
    args = parser.parse_args()
    load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, w in WORKLOADS.items():
            if args.only and name not in args.only:
                continue
            program = timed(w.data, w.setup, "step", w.steps)
            engine_command = [sys.executable, "-m", "runtime.run", "--face", w.face]
            engine = us(fastest(engine_command, program, folder, name, args.repeat))
            real: float | str = "-"
            if args.tf_python:
                command = [args.tf_python, str(ROOT / "tests" / "tf1_face.py")] if w.face == "tf1" else [args.tf_python]
                real = us(fastest(command, program, folder, name, args.repeat))
            numpy_us: float | str = "-"
            together: dict[str, float] | str = "-"
            if w.numpy_setup is not None:
                numpy_us = us(fastest([sys.executable], timed(w.data, w.numpy_setup, "numpy_step", w.steps),
                                      folder, f"{name} numpy", args.repeat))
                together = fastest(engine_command, interleaved(w.data, w.setup, w.numpy_setup, w.steps),
                                   folder, f"{name} interleaved", args.repeat)
            side = (ratio(us(together), us(together, "numpy_us_per_step"))
                    if isinstance(together, dict) else fmt(together))
            rows.append(f"| {name} | {fmt(engine)} | {fmt(real)} | {fmt(numpy_us)} | {ratio(real, engine)} | "
                        f"{ratio(engine, numpy_us)} | {side} |")
    table = "\n".join(rows)
    report = (
        f"## Engine steps ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n\n"
        f"`python benchmarks/engine_steps.py {' '.join(sys.argv[1:])}` on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, NumPy {version('numpy')}; load average "
        f"{' / '.join(f'{x:.1f}' for x in load)} at the start; engine import "
        f"{import_time() * 1000:.0f} ms; each cell the fastest of {args.repeat} runs\n\n"
        "| workload | engine µs/step | TF 2.21 µs/step | NumPy µs/step | TF / engine | engine / NumPy "
        "(own processes) | engine / NumPy (one process, by turns) |\n"
        f"|---|---|---|---|---|---|---|\n{table}\n"
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
