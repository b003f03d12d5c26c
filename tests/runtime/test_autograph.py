"""AutoGraph's limits in the engine: what it leaves to Python, and what it refuses loudly.

What it converts is checked against real TF by conformance programs c160–c162.
"""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import run_engine

PRELUDE = "import tensorflow as tf\nfrom runtime.errors import Unsupported\n"


def run(tmp_path: Path, body: str) -> str:
    prog = tmp_path / "p.py"
    prog.write_text(PRELUDE + body)
    out = run_engine(prog, face="tf2")
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_return_inside_a_tensor_branch_is_a_named_unsupported_error(tmp_path: Path) -> None:
    out = run(tmp_path, (
        "@tf.function\n"
        "def f(x):\n"
        "    if tf.reduce_sum(x) > 0:\n"
        "        return x\n"
        "    return -x\n"
        "try:\n    f(tf.constant([1.0]))\nexcept Unsupported as e:\n    print('Unsupported', 'returns' in str(e))\n"
        "@tf.function\n"
        "def g(x, flag):\n"
        "    if flag:\n"
        "        return x\n"
        "    return -x\n"
        "print(g(tf.constant([1.0]), True).numpy(), g(tf.constant([1.0]), False).numpy())\n"))
    assert out.split("\n")[:2] == ["Unsupported True", "[1.] [-1.]"]


def test_while_over_a_runtime_tensor_is_a_named_unsupported_error(tmp_path: Path) -> None:
    out = run(tmp_path, (
        "@tf.function(input_signature=[tf.TensorSpec([None])])\n"
        "def f(x):\n"
        "    i = tf.constant(0)\n"
        "    while i < tf.shape(x)[0]:\n"
        "        i += 1\n"
        "    return i\n"
        "try:\n    f(tf.constant([1.0, 2.0]))\nexcept Unsupported as e:\n    print('Unsupported', 'while' in str(e))\n"))
    assert out.strip() == "Unsupported True"


def test_autograph_false_and_sourceless_functions_run_unconverted(tmp_path: Path) -> None:
    out = run(tmp_path, (
        "def plain(x):\n"
        "    if tf.reduce_sum(x) > 0:\n"
        "        x = x * 2.0\n"
        "    return x\n"
        "f = tf.function(plain, autograph=False)\n"
        "try:\n    f(tf.constant([1.0]))\nexcept TypeError as e:\n    print(type(e).__name__)\n"
        "scope = {'tf': tf}\n"
        "exec('def made(x):\\n    if tf.reduce_sum(x) > 0:\\n        x = x * 2.0\\n    return x\\n', scope)\n"
        "try:\n    tf.function(scope['made'])(tf.constant([1.0]))\nexcept TypeError as e:\n    print(type(e).__name__)\n"
        "print(tf.function(plain)(tf.constant([1.0])).numpy())\n"))
    assert out.split("\n")[:3] == ["OperatorNotAllowedInGraphError"] * 2 + ["[2.]"]
