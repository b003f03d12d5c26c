"""Run a program on real TensorFlow with ``import tensorflow`` meaning the 1.x API.

TF1-era programs say ``import tensorflow as tf`` and call ``tf.placeholder``; real
TF 2.21 serves that API as ``tensorflow.compat.v1`` with eager execution disabled.
"""

import runpy
import sys

from tensorflow.compat import v1

v1.disable_eager_execution()
sys.modules["tensorflow"] = v1
program = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path.insert(0, program.rsplit("/", 1)[0] if "/" in program else ".")
runpy.run_path(program, run_name="__main__")
