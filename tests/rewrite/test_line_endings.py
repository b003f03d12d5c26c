"""Line endings come back as the file had them: CR-only, CRLF, LF, and any mix of them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from migrate.api import rewrite_source
from migrate.process import rewrite_bytes, unified_diff
from migrate.report import RewriteConfig

LIBRARY = "import tensorflow as tf\n\nz = tf.random_normal([2])\nw = tf.log(z)\n"
PROGRAM = "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\ny = tf.layers.dense(x, 3)\n"


@pytest.mark.parametrize("text", [LIBRARY, PROGRAM])
def test_a_cr_only_file_keeps_its_endings_and_its_final_newline(text: str) -> None:
    source = text.replace("\n", "\r").encode()
    result = rewrite_bytes(source, "old_mac.py", RewriteConfig())
    assert result.changed
    assert result.code.endswith(b"\r") and b"\n" not in result.code
    lf = rewrite_bytes(text.encode(), "unix.py", RewriteConfig()).code
    assert result.code == lf.replace(b"\n", b"\r")


@pytest.mark.parametrize("tail", ["\r", "\r\r", "\r# last\r", "\r    \r"])
def test_the_final_cr_survives_whatever_precedes_it(tail: str) -> None:
    source = ("import tensorflow as tf\rz = tf.random_normal([2])" + tail).encode()
    result = rewrite_source(source)
    assert result.code == source.replace(b"random_normal", b"random.normal")


def test_mixed_endings_are_kept_on_every_line_the_rewrite_leaves() -> None:
    source = b"import tensorflow as tf\r\n# a note\rz = tf.random_normal([2])\nw = 1\r\n# end\r"
    result = rewrite_source(source)
    assert result.code == source.replace(b"random_normal", b"random.normal")
    assert rewrite_source(result.code).code == result.code


@pytest.mark.parametrize("newline, extra", [("\r", ""), ("\r\n", ""), ("\n", "# one\u2028two\n")])
def test_the_diff_applies_with_git_apply_whatever_the_endings(
    tmp_path: Path, newline: str, extra: str
) -> None:
    source = (extra + LIBRARY).replace("\n", newline).encode()
    (tmp_path / "old.py").write_bytes(source)
    rewrite = rewrite_bytes(source, "old.py", RewriteConfig()).code
    diff = unified_diff("old.py", source, rewrite)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "apply", "-"], cwd=tmp_path, input=diff.encode(), check=True)
    assert (tmp_path / "old.py").read_bytes() == rewrite
