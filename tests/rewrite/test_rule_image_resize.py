"""TF108/TF190: TF1's image resizes as TF2's tf.image.resize where the numbers are the same."""

import os
import subprocess

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source


@pytest.mark.parametrize(("before", "after"), [
    ("tf.image.resize_area(i, s)", "tf.image.resize(i, s, method=tf.image.ResizeMethod.AREA)"),
    ("tf.image.resize_bilinear(i, s, half_pixel_centers=True, name='up')",
     "tf.image.resize(i, s, method=tf.image.ResizeMethod.BILINEAR, name='up')"),
    ("tf.image.resize_nearest_neighbor(i, size=s, align_corners=False, half_pixel_centers=True)",
     "tf.image.resize(i, s, method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)"),
])
def test_a_resize_tf2_computes_alike_is_tf2s(before: str, after: str) -> None:
    check_transformed(f"import tensorflow as tf\ny = {before}\n", f"import tensorflow as tf\ny = {after}\n")


@pytest.mark.parametrize(("call", "why"), [
    ("image.resize_bilinear(i, s)", "samples at half-pixel centres"),
    ("image.resize_area(i, s, True)", "aligns no corners"),
    ("image.resize_bicubic(i, s, half_pixel_centers=True)", "weighs neighbours otherwise"),
])
def test_a_resize_tf2_computes_otherwise_keeps_tf1s_and_says_why(call: str, why: str) -> None:
    result = check_transformed(f"import tensorflow as tf\ny = tf.{call}\n",
                               f"import tensorflow as tf\ny = tf.compat.v1.{call}\n", level="partial")
    assert [why in f.message for f in result.findings if f.kind == "manual"] == [True]


_COMPARE = """
import sys
import numpy as np
import tensorflow as tf
i = tf.constant(np.random.RandomState(0).rand(2, 7, 5, 3).astype("float32"))
s = [11, 4]
print(float(np.abs(eval(sys.argv[1]).numpy() - eval(sys.argv[2]).numpy()).max()))
"""


@pytest.mark.tf
@pytest.mark.parametrize(("call", "same"), [
    ("image.resize_area(i, s)", True),
    ("image.resize_bilinear(i, s, half_pixel_centers=True)", True),
    ("image.resize_nearest_neighbor(i, s, half_pixel_centers=True)", True),
    ("image.resize_bilinear(i, s)", False),  # what tf_upgrade_v2's tf.image.resize would change
])
def test_the_tf2_form_computes_tf1s_numbers_on_tf221(call: str, same: bool) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    tf1 = f"tf.compat.v1.{call}"
    method = call.split("(")[0].removeprefix("image.resize_").upper()
    tf2 = (rewrite_source(f"import tensorflow as tf\ny = tf.{call}\n").code.split("y = ", 1)[1].strip() if same
           else f"tf.image.resize(i, s, method=tf.image.ResizeMethod.{method})")
    out = subprocess.run([python, "-c", _COMPARE, tf1, tf2], capture_output=True, text=True, check=True,
                         env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    difference = float(out.stdout.strip().splitlines()[-1])
    assert (difference == 0.0) == same, difference
