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
    ("tf.image.resize_images(i, s, method=3)", "tf.image.resize(i, s, method=tf.image.ResizeMethod.AREA)"),
    ("tf.image.resize_images(i, s, tf.image.ResizeMethod.AREA, preserve_aspect_ratio=True)",
     "tf.image.resize(i, s, method=tf.image.ResizeMethod.AREA, preserve_aspect_ratio=True)"),
])
def test_a_resize_tf2_computes_alike_is_tf2s(before: str, after: str) -> None:
    check_transformed(f"import tensorflow as tf\ny = {before}\n", f"import tensorflow as tf\ny = {after}\n")


@pytest.mark.parametrize(("call", "why"), [
    ("image.resize_bilinear(i, s)", "samples at half-pixel centres"),
    ("image.resize_area(i, s, True)", "aligns no corners"),
    ("image.resize_bicubic(i, s, half_pixel_centers=True)", "weighs neighbours otherwise"),
    # TF2's resize takes no integer methods, and samples TF1's at other points
    ("image.resize_images(i, s)", "for the AREA method only"),
    ("image.resize_images(i, s, method=0)", "for the AREA method only"),
    ("image.resize_images(i, s, 1)", "for the AREA method only"),
    ("image.resize_images(i, s, method=tf.image.ResizeMethod.BICUBIC)", "for the AREA method only"),
    ("image.resize_images(i, s, 3, True)", "for the AREA method only"),
])
def test_a_resize_tf2_computes_otherwise_keeps_tf1s_and_says_why(call: str, why: str) -> None:
    result = check_transformed(f"import tensorflow as tf\ny = tf.{call}\n",
                               f"import tensorflow as tf\ny = tf.compat.v1.{call}\n", level="partial")
    assert [why in f.message for f in result.findings if f.kind == "manual"] == [True]


def test_a_kept_resize_leaves_the_session_program_eager() -> None:
    """compat.v1's resizes are plain ops: the program around them still converts."""
    result = rewrite_source(
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 4, 4, 1])\n"
        "y = tf.image.resize_images(x, [2, 2], method=1)\n"
        "with tf.Session() as sess:\n"
        "    print(sess.run(y, feed_dict={x: [[[[1.0]] * 4] * 4]}))\n")
    assert result.level == "partial"
    assert "Session" not in result.code and "disable_eager_execution" not in result.code
    assert "tf.compat.v1.image.resize_images(x, [2, 2], method=1)" in result.code


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
    ("image.resize_images(i, s, method=3)", True),
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
