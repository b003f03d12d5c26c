"""TF108: contrib's variance-scaling initializers as Keras's VarianceScaling with TF1's numbers."""

import os
import subprocess

import pytest
from helpers import check_transformed_code

from migrate.api import rewrite_source

_TRUNCATED = "0.87962566103423978 ** 2"


@pytest.mark.parametrize(("before", "after"), [
    # contrib's truncated normal has stddev sqrt(1.3 * factor / n); Keras divides sqrt(scale / n)
    # by the truncation's 0.8796...
    ("tf.contrib.layers.variance_scaling_initializer()",
     (f"tf.keras.initializers.VarianceScaling(scale=1.3 * 2.0 * {_TRUNCATED}, mode='fan_in', "
     "distribution='truncated_normal')")),
    ("tf.contrib.layers.variance_scaling_initializer(factor=1.0)",
     f"tf.keras.initializers.VarianceScaling(scale=1.3 * {_TRUNCATED}, mode='fan_in', distribution='truncated_normal')"),
    # a uniform draw in ±sqrt(3 * factor / n) is Keras's with scale=factor; a literal mode is folded
    ('tf.contrib.layers.variance_scaling_initializer(uniform=(True or False), mode=("FAN" + "_AVG"))',
     "tf.keras.initializers.VarianceScaling(scale=2.0, mode='fan_avg', distribution='uniform')"),
    ("tf.contrib.layers.variance_scaling_initializer(3.0, mode, uniform, 7)",
     (f"tf.keras.initializers.VarianceScaling(scale=(3.0 if uniform else 1.3 * 3.0 * {_TRUNCATED}), "
     "mode=mode.lower(), distribution=('uniform' if uniform else 'truncated_normal'), seed=7)")),
    ("tf.contrib.layers.xavier_initializer_conv2d(False, 12)",
     (f"tf.keras.initializers.VarianceScaling(scale=1.3 * {_TRUNCATED}, mode='fan_avg', "
     "distribution='truncated_normal', seed=12)")),
    # the seed is kept (the table's plain form has none to keep)
    ("tf.contrib.layers.xavier_initializer(seed=5)",
     "tf.keras.initializers.VarianceScaling(scale=1.0, mode='fan_avg', distribution='uniform', seed=5)"),
])
def test_contrib_variance_scaling_is_keras_variance_scaling(before: str, after: str) -> None:
    check_transformed_code(f"import tensorflow as tf\ni = {before}\n", f"import tensorflow as tf\ni = {after}\n")


def test_a_dtype_keras_cannot_take_leaves_the_call_reported() -> None:
    source = "import tensorflow as tf\ni = tf.contrib.layers.variance_scaling_initializer(dtype=tf.float16)\n"
    result = rewrite_source(source)
    assert result.code == source
    assert [f.kind for f in result.findings] == ["manual"]
    assert "has no TF 2.21 form" in result.findings[0].message


# contrib's draw (initializers.py of TF 1.x), with TF1's ops TF 2.21 keeps under compat.v1.
_CONTRIB_DRAW = """
import math, sys
import numpy as np
import tensorflow as tf
shape, factor, fan = (2000, 2000), 2.0, 2000.0
reference = tf.compat.v1.truncated_normal_initializer(stddev=math.sqrt(1.3 * factor / fan), seed=1)(shape)
ours = eval(sys.argv[1])(shape, tf.float32)
print(float(np.std(ours.numpy()) / np.std(reference.numpy())))
"""


@pytest.mark.tf
def test_the_keras_form_draws_with_contribs_spread_on_tf221() -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    code = rewrite_source("import tensorflow as tf\ni = tf.contrib.layers.variance_scaling_initializer(seed=2)\n").code
    keras = code.split("i = ", 1)[1].strip()
    out = subprocess.run([python, "-c", _CONTRIB_DRAW, keras], capture_output=True, text=True, check=True,
                         env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    ratio = float(out.stdout.strip().splitlines()[-1])
    # 4M draws: the ratio's own spread is ~0.05%; scale=factor (tf_upgrade_v2's) would be 0.3% off
    assert abs(ratio - 1) < 0.001, ratio
