"""Rewrite cost of one big TF1 file: wall time and peak memory against the file's size.

    python benchmarks/big_files.py [--sizes 1 2 4 5] [--record]

Generates, for each size in MB, one file of a model zoo (``zoo_file``): model functions
built from ``tf.layers`` under variable scopes, each with its placeholders, loss and
optimizer and a session training it, between the blocks of ``benchmarks/tf1_corpus.py``
(regressions fitted with a session, model classes keeping their graph as attributes,
helpers with variable scopes, plain Python utilities), under one graph seed. Names and
sizes come from a seeded RNG, so a size always gives the same file.

Each file is rewritten by a fresh process running ``tfmigrate rewrite --check --no-cache``
on it alone; the table gives its wall time, CPU time and peak resident memory
(``ru_maxrss`` of the child) and the time per MB, which stays flat when the cost grows
linearly. ``--record`` appends the table to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf1_corpus import BLOCKS, _params

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024

HEADER = '''"""Generated TF1 model zoo ({size} bytes)."""
import numpy as np
import tensorflow as tf

tf.set_random_seed({seed})
'''

ZOO_MODEL = '''

def model_{n}(inputs, training):
    """Model {n} of the zoo: a hidden layer with dropout, under its own variable scope."""
    with tf.variable_scope("model_{n}"):
        net = tf.layers.dense(inputs, {h}, activation=tf.nn.relu, name="hidden")
        net = tf.layers.dropout(net, rate=0.1, training=training)
        return tf.layers.dense(net, 1, name="out")


zoo_x_{n} = tf.placeholder(tf.float32, [None, {d}])
zoo_y_{n} = tf.placeholder(tf.float32, [None, 1])
zoo_training_{n} = tf.placeholder(tf.bool)
zoo_pred_{n} = model_{n}(zoo_x_{n}, zoo_training_{n})
zoo_loss_{n} = tf.reduce_mean(tf.square(zoo_pred_{n} - zoo_y_{n}))
zoo_train_{n} = tf.train.AdamOptimizer({lr}).minimize(zoo_loss_{n})
zoo_data_x_{n} = np.random.RandomState({seed}).rand(32, {d}).astype(np.float32)
zoo_data_y_{n} = zoo_data_x_{n}.sum(axis=1, keepdims=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range({steps}):
        sess.run(zoo_train_{n}, feed_dict={{zoo_x_{n}: zoo_data_x_{n}, zoo_y_{n}: zoo_data_y_{n},
                                          zoo_training_{n}: True}})
    print("model {n}", sess.run(zoo_loss_{n}, feed_dict={{
        zoo_x_{n}: zoo_data_x_{n}, zoo_y_{n}: zoo_data_y_{n}, zoo_training_{n}: False}}))
'''

ZOO_BLOCKS = (ZOO_MODEL, ZOO_MODEL, *BLOCKS)


def zoo_file(size: int, seed: int = 0) -> str:
    """A model zoo of about ``size`` bytes (never less), the same for the same arguments."""
    rng = random.Random(seed)
    parts = [HEADER.format(size=size, seed=seed)]
    total = len(parts[0])
    n = 0
    while total < size:
        block = rng.choice(ZOO_BLOCKS).format(**_params(rng, n))
        parts.append(block)
        total += len(block)
        n += 1
    return "".join(parts)


def measure(path: Path) -> tuple[float, float, int, int]:
    """(wall s, CPU s, peak RSS in bytes, exit status) of ``tfmigrate rewrite --check`` on one file."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "migrate", "rewrite", "--check", "--no-cache", "-j", "1", path.name],
        cwd=path.parent, capture_output=True, text=True, env=env, check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1, 3):
        raise SystemExit(f"tfmigrate failed on {path.name} ({proc.returncode}):\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of the children is the largest any of them reached (in KiB on Linux): each
    # size runs in a child of its own, smallest first, so the row's figure is that child's.
    return wall, cpu, after.ru_maxrss * 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 2, 4, 5], help="file sizes in MB")
    parser.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    args = parser.parse_args()
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "pyproject.toml").write_text("[tool.tfmigrate]\n")
        for mb in sorted(args.sizes):
            path = Path(tmp) / f"zoo_{mb:g}mb.py"
            text = zoo_file(int(mb * MB))
            path.write_text(text)
            wall, cpu, rss, status = measure(path)
            rows.append((len(text), text.count("\n"), wall, cpu, rss, status))
            print(f"{len(text) / MB:.2f} MB: {wall:.1f} s wall, {cpu:.1f} s CPU, {rss / MB:.0f} MB peak",
                  flush=True)
    table = "\n".join(
        f"| {size / MB:.2f} | {lines:,} | {wall:.1f} | {cpu:.1f} | {cpu / (size / MB):.1f} | {rss / MB:.0f} | {status} |"
        for size, lines, wall, cpu, rss, status in rows
    )
    command = " ".join(["python benchmarks/big_files.py", *sys.argv[1:]])
    report = (
        f"## Big files ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})\n\n"
        f"`{command}` on {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, libcst {version('libcst')}; load average {load} at the start, "
        f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} at the end. One fresh "
        "`tfmigrate rewrite --check --no-cache -j 1` process per file.\n\n"
        "| MB | lines | wall s | CPU s | CPU s per MB | peak RSS MB | exit |\n"
        f"|---:|---:|---:|---:|---:|---:|---:|\n{table}\n"
    )
    print(report)
    if args.record:
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write("\n" + report)


if __name__ == "__main__":
    main()
