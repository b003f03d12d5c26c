"""A program forked from the warm TensorFlow server does what it does in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests import tf_runner
from tests.referee import TF1_FACE, exception_type

TF1_GRAPH = """\
import tensorflow as tf
x = tf.placeholder(tf.float32, [2])
with tf.Session() as sess:
    print(sess.run(x * 2, {x: [1.5, 2.0]}))
"""
IO_ARGV_ENV_CWD = """\
import os, sys
print(sys.argv[1:], os.environ['PROBE'], os.path.basename(os.getcwd()), sys.path[0] == os.getcwd())
print(sys.stdin.read().upper())
import helper
print(helper.VALUE, __name__)
"""
PROGRAMS = {
    "tf1_graph": (TF1_GRAPH, "tf1"),
    "io_argv_env_cwd": (IO_ARGV_ENV_CWD, "tf2"),
    "keras_error": ("import tensorflow as tf\ntf.keras.optimizers.SGD().minimize(None, [])\n", "tf2"),
    "exit_status": ("import sys\nprint('bye', flush=True)\nsys.exit(3)\n", "tf2"),
    # A graph-mode program run before must not leave this one in graph mode.
    "eager_after_graph": (
        "import tensorflow as tf\nprint(tf.executing_eagerly(), float(tf.reduce_sum(tf.ones([3]))))\n", "tf2"),
}


def _run(python: str, folder: Path, name: str, *, forked: bool) -> subprocess.CompletedProcess:
    source, face = PROGRAMS[name]
    folder.mkdir()
    program = folder / f"{name}.py"
    program.write_text(source)
    (folder / "helper.py").write_text("VALUE = 42\n")
    args = [str(TF1_FACE), str(program)] if face == "tf1" else [str(program)]
    env = dict(os.environ, PROBE="probe", **{tf_runner.FORK_ENV: "1" if forked else "0"})
    return tf_runner.run([python, *args, "a", "b"], cwd=folder, input="stdin text", env=env, timeout=300)


@pytest.mark.tf
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_forked_run_is_a_fresh_run(real_tf: str, tmp_path: Path, name: str) -> None:
    fresh = _run(real_tf, tmp_path / "fresh", name, forked=False)
    forked = _run(real_tf, tmp_path / "forked", name, forked=True)
    assert forked.returncode == fresh.returncode, forked.stderr[-2000:]
    assert forked.stdout.replace("forked", "fresh") == fresh.stdout
    assert exception_type(forked.stderr) == exception_type(fresh.stderr)
    if fresh.returncode == 0:
        assert forked.stderr == fresh.stderr


@pytest.mark.tf
def test_a_program_past_its_timeout_is_ended(real_tf: str, tmp_path: Path) -> None:
    program = tmp_path / "sleeper.py"
    program.write_text("import time\ntime.sleep(60)\n")
    with pytest.raises(subprocess.TimeoutExpired):
        tf_runner.run([real_tf, str(program)], cwd=tmp_path, timeout=1)
    # The server is still good for the next program.
    done = tf_runner.run([real_tf, "-c", "print(6 * 7)"], cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stdout) == (0, "42\n")
