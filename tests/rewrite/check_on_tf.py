"""Run every fixture's before.py under real TF (compat.v1 graph mode) and after.py under TF 2.

Usage: check_on_tf.py [--hand] TF_PYTHON [FIXTURE_NAME ...]. Prints one line per fixture and
exits 1 if any printed number differs beyond the fixture's tolerance (`check.json`:
{"rtol": 1e-4}). ``--hand`` checks the hand rewrites (hand.py) in place of after.py.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests import tf_runner

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "programs"
# TF1-era programs say `import tensorflow as tf`; this prelude gives them the TF1 face.
# TF 2.21 with Keras 3 has no tf.compat.v1.layers nor tf.contrib; originals get TF1's own layer
# functions (still shipped as tensorflow.python.keras.legacy_tf_layers) and contrib.layers'
# basics written over them with contrib's defaults (relu, 'weights'/'biases' names).
LAYERS_SHIM = """
import types, tensorflow.compat.v1 as v1
from tensorflow.python.keras.legacy_tf_layers import convolutional, core, pooling
v1.layers = types.SimpleNamespace(
    dense=core.dense, dropout=core.dropout, flatten=core.flatten, conv2d=convolutional.conv2d,
    conv2d_transpose=convolutional.conv2d_transpose, max_pooling2d=pooling.max_pooling2d,
    average_pooling2d=pooling.average_pooling2d)
def _fully_connected(inputs, num_outputs, activation_fn=v1.nn.relu, normalizer_fn=None,
                     normalizer_params=None, weights_initializer=None,
                     weights_regularizer=None, biases_initializer=v1.zeros_initializer(),
                     biases_regularizer=None, trainable=True, scope=None):
    with v1.variable_scope(scope, default_name='fully_connected'):
        out = v1.matmul(inputs, v1.get_variable(
            'weights', [inputs.shape[-1], num_outputs], initializer=weights_initializer,
            regularizer=weights_regularizer, trainable=trainable))
        if normalizer_fn is not None:  # in place of biases
            out = normalizer_fn(out, **(normalizer_params or {}))
        elif biases_initializer is not None:
            out = out + v1.get_variable('biases', [num_outputs], initializer=biases_initializer,
                                        regularizer=biases_regularizer, trainable=trainable)
        return activation_fn(out) if activation_fn is not None else out
def _batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                         training=False, name=None, **unused):
    # TF1's non-fused form: batch moments while training, moving averages in UPDATE_OPS.
    with v1.variable_scope(name, default_name='batch_normalization'):
        size = [inputs.shape[-1]]
        gamma = v1.get_variable('gamma', size, initializer=v1.ones_initializer()) if scale else None
        beta = v1.get_variable('beta', size, initializer=v1.zeros_initializer()) if center else None
        moving_mean = v1.get_variable('moving_mean', size, initializer=v1.zeros_initializer(), trainable=False)
        moving_var = v1.get_variable('moving_variance', size, initializer=v1.ones_initializer(), trainable=False)
        training = v1.convert_to_tensor(training)
        mean, var = v1.cond(training, lambda: v1.nn.moments(inputs, list(range(inputs.shape.ndims - 1))),
                            lambda: (v1.identity(moving_mean), v1.identity(moving_var)))
        decay = v1.cond(training, lambda: v1.constant(1.0 - momentum), lambda: v1.constant(0.0))
        for variable, value in ((moving_mean, mean), (moving_var, var)):
            v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, v1.assign_sub(variable, (variable - value) * decay))
        return v1.nn.batch_normalization(inputs, mean, var, beta, gamma, epsilon)
v1.layers.batch_normalization = _batch_normalization
def _l2_regularizer(scale, scope=None):
    return lambda weights: v1.multiply(scale, v1.nn.l2_loss(weights), name='l2_regularizer')
# TF1's cells, which TF 2.21 still ships as tensorflow.python.keras.layers.legacy_rnn.
from tensorflow.python.keras.layers.legacy_rnn import rnn_cell_impl as _cells
_rnn = types.SimpleNamespace(**{name: getattr(_cells, name) for name in (
    'BasicRNNCell', 'BasicLSTMCell', 'LSTMCell', 'GRUCell', 'MultiRNNCell', 'LSTMStateTuple', 'DropoutWrapper')})
v1.nn.rnn_cell = _rnn
v1.contrib = types.SimpleNamespace(rnn=types.SimpleNamespace(**vars(_rnn), static_rnn=v1.nn.static_rnn),
                                   layers=types.SimpleNamespace(
    fully_connected=_fully_connected, flatten=lambda inputs, scope=None: core.flatten(inputs),
    l2_regularizer=_l2_regularizer, xavier_initializer=lambda uniform=True, seed=None, dtype=v1.float32: (
        v1.glorot_uniform_initializer if uniform else v1.glorot_normal_initializer)(seed=seed, dtype=dtype)))
"""
# `tensorflow.examples.tutorials.mnist.input_data` is gone from TF 2.21 and `tf.keras.datasets`
# downloads: both sides read the engine's synthetic MNIST, as under `tfmigrate verify`.
TUTORIAL_DATA = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from tests.synthetic_data import install
install()
"""
# TF1's executor runs a read and an update fetched in one session.run on two threads, in
# either order (a global step fetched beside its train op prints before or after the
# increment from run to run); one inter-op thread runs the read first, as the rewrite does.
ONE_THREAD = (
    "import tensorflow as _tf\n"
    "_tf.config.threading.set_inter_op_parallelism_threads(1)\n"
)
TF1_PRELUDE = ONE_THREAD + TUTORIAL_DATA + LAYERS_SHIM + (
    "import sys, runpy\n"
    "v1.disable_eager_execution()\n"
    "sys.modules['tensorflow'] = v1\n"
    "runpy.run_path(sys.argv[1], run_name='__main__')\n"
)
PLAIN = TUTORIAL_DATA + "import sys, runpy\nrunpy.run_path(sys.argv[1], run_name='__main__')\n"
COMPAT_PRELUDE = ONE_THREAD + LAYERS_SHIM + PLAIN
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])")


def numbers(text: str) -> list[float]:
    """Numbers printed as values (not digits inside identifiers such as float32)."""
    return [float(m) for m in NUMBER.findall(text)]


def run(python: str, program: Path, prelude: str, stdin: str) -> tuple[int, str, str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONHASHSEED="0")
    proc = tf_runner.run([python, "-c", prelude, str(program)], input=stdin, env=env,
                         cwd=program.parent, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def close(a: float, b: float, rtol: float, atol: float) -> bool:
    return abs(a - b) <= atol + rtol * abs(b)


@functools.cache
def _lacks(python: str, module: str) -> bool:
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True, check=False).returncode != 0


def missing_modules(python: str, fixture: Path) -> list[str]:
    """Modules the fixture's after.py needs (`check.json`: {"needs": [...]}) that `python` lacks:
    TF 2.21 implements tf.summary.scalar and friends in the separate tensorboard package."""
    config = json.loads((fixture / "check.json").read_text()) if (fixture / "check.json").exists() else {}
    return [module for module in config.get("needs", []) if _lacks(python, module)]


def check(python: str, fixture: Path, rewrite: str = "after.py", original: str = "before.py") -> tuple[bool, str]:
    """(passed, message) for one fixture: its ``original`` (before.py, or a program's script in
    before/) against ``rewrite`` (the golden after.py, the hand rewrite hand.py, or the script
    in after/)."""
    config = json.loads((fixture / "check.json").read_text()) if (fixture / "check.json").exists() else {}
    rtol, atol = config.get("rtol", 1e-4), config.get("atol", 1e-6)
    stdin = (fixture / "stdin.txt").read_text() if (fixture / "stdin.txt").exists() else ""
    before = fixture / original
    prelude = COMPAT_PRELUDE if "compat.v1" in before.read_text() else TF1_PRELUDE
    rc1, out1, err1 = run(python, before, prelude, stdin)
    if rc1 != 0:
        return False, f"{original} failed: {err1.strip().splitlines()[-1:]}"
    rc2, out2, err2 = run(python, fixture / rewrite, PLAIN, stdin)
    if rc2 != 0:
        return False, f"{rewrite} failed: {err2.strip().splitlines()[-1:]}"
    n1, n2 = numbers(out1), numbers(out2)
    if not n1:
        return False, f"{original} printed no numbers"
    if len(n1) != len(n2):
        return False, f"printed {len(n1)} numbers before, {len(n2)} after"
    for i, (a, b) in enumerate(zip(n1, n2)):
        if not close(b, a, rtol, atol):
            return False, f"number {i}: before {a!r}, after {b!r}"
    exact = all(a == b for a, b in zip(n1, n2))
    return True, f"{len(n1)} numbers {'identical' if exact else f'within rtol={rtol}'}"


def main(argv: list[str]) -> int:
    rewrite = "hand.py" if argv[:1] == ["--hand"] else "after.py"
    argv = argv[1:] if rewrite == "hand.py" else argv
    python, names = argv[0], argv[1:]
    fixtures = sorted(p for p in FIXTURES.iterdir() if (p / rewrite).exists())
    if names:
        fixtures = [f for f in fixtures if f.name in names]
    failed = 0
    runnable = []
    for fixture in fixtures:
        missing = missing_modules(python, fixture)
        if missing:
            print(f"SKIP {fixture.name}: needs {', '.join(missing)}", flush=True)
        else:
            runnable.append(fixture)
    fixtures = runnable
    with ThreadPoolExecutor(max_workers=2) as pool:
        for fixture, (ok, message) in zip(fixtures, pool.map(lambda f: check(python, f, rewrite), fixtures)):
            failed += not ok
            print(f"{'PASS' if ok else 'FAIL'} {fixture.name}: {message}", flush=True)
    print(f"{len(fixtures) - failed}/{len(fixtures)} fixtures agree on real TensorFlow")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
