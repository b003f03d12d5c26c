"""TF108: tf.logging calls as methods of tf.get_logger(), TF1's own logger."""

import os
import subprocess

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source


@pytest.mark.parametrize(("before", "after"), [
    ("tf.logging.info('step %d', 3)", "tf.get_logger().info('step %d', 3)"),
    ("tf.logging.warn('late')", "tf.get_logger().warning('late')"),
    ("tf.logging.fatal(msg)", "tf.get_logger().critical(msg)"),
    ("tf.logging.log(tf.logging.ERROR, msg)", "tf.get_logger().log(tf.compat.v1.logging.ERROR, msg)"),
    ("tf.logging.set_verbosity(tf.logging.INFO)", 'tf.get_logger().setLevel("INFO")'),
    ("tf.logging.set_verbosity(tf.logging.WARN)", 'tf.get_logger().setLevel("WARNING")'),
    ("tf.logging.set_verbosity(level)", "tf.get_logger().setLevel(level)"),
    ("tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.DEBUG)", 'tf.get_logger().setLevel("DEBUG")'),
])
def test_a_logging_call_is_the_loggers_method(before: str, after: str) -> None:
    level = "partial" if "compat" in after else "idiomatic"
    check_transformed(f"import tensorflow as tf\n{before}\n", f"import tensorflow as tf\n{after}\n", level=level)


def test_a_level_constant_outside_set_verbosity_keeps_compat() -> None:
    result = check_transformed("import tensorflow as tf\nprint(tf.logging.INFO)\n",
                               "import tensorflow as tf\nprint(tf.compat.v1.logging.INFO)\n", level="partial")
    assert [f.rule for f in result.findings] == ["TF190"]


_PROGRAM = """import tensorflow as tf
tf.logging.set_verbosity(tf.logging.INFO)
tf.logging.info("value %s", 3)
tf.logging.debug("hidden")
tf.logging.warn("warned")
tf.logging.set_verbosity(tf.logging.ERROR)
tf.logging.warning("hidden too")
tf.logging.error("an error")
print(tf.logging.get_verbosity())
"""


@pytest.mark.tf
def test_the_rewrite_logs_what_tf1_logged_on_tf221(tmp_path) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    new = rewrite_source(_PROGRAM).code
    assert "tf.logging" not in new
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    runs = []
    for source in (_PROGRAM.replace("import tensorflow as tf", "import tensorflow.compat.v1 as tf"), new):
        done = subprocess.run([python, "-c", source], capture_output=True, text=True, check=True, env=env)
        runs.append((done.stdout, [ln for ln in done.stderr.splitlines() if ":tensorflow:" in ln]))
    assert runs[0] == runs[1]
    assert runs[1][1] == ["INFO:tensorflow:value 3", "WARNING:tensorflow:warned", "ERROR:tensorflow:an error"]
