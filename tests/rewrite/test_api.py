"""The public interface: levels, no-ops, encodings, skip comments, rule table."""

from __future__ import annotations

import gc

import pytest
from helpers import check_noop

from migrate.api import (
    ParseError,
    RewriteConfig,
    all_rules,
    find_tf1_usages,
    rewrite_source,
)

TF1 = (
    "import tensorflow as tf\n"
    "x = tf.placeholder(tf.float32, [2])\n"
    "y = tf.log(x)  # keep me\n"
    "with tf.Session() as sess:\n"
    "    print(sess.run(y, feed_dict={x: [1.0, 2.0]}))\n"
)


def test_non_tensorflow_file_is_untouched() -> None:
    check_noop("import numpy as np\nprint(np.log(2.0))\n")


def test_numpy_imported_as_tf_is_not_tensorflow() -> None:
    check_noop("import numpy as tf\nx = tf.placeholder(1)\nsess = tf.Session()\n")


def test_tf2_code_is_untouched() -> None:
    check_noop(
        "import tensorflow as tf\n\nv = tf.Variable(1.0)\n\n\n@tf.function\n"
        "def f(x):\n    return tf.math.log(x) * v\n"
    )


def test_bytes_keep_bom_cookie_and_crlf() -> None:
    source = ("\ufeff# -*- coding: utf-8 -*-\r\n" + TF1.replace("\n", "\r\n")).encode("utf-8")
    result = rewrite_source(source)
    assert isinstance(result.code, bytes)
    assert result.code.startswith("\ufeff# -*- coding: utf-8 -*-\r\n".encode())
    assert b"\n" not in result.code.replace(b"\r\n", b"")
    assert b"tf.math.log(x)  # keep me" in result.code
    assert rewrite_source(result.code).code == result.code


def test_latin1_cookie_roundtrips() -> None:
    source = "# -*- coding: latin-1 -*-\n# café\n" + TF1
    result = rewrite_source(source.encode("latin-1"))
    assert "# café".encode("latin-1") in result.code
    assert result.level == "idiomatic"


def test_str_in_str_out() -> None:
    result = rewrite_source(TF1)
    assert isinstance(result.code, str)
    assert "def compute_y(x):" in result.code


def test_skip_file_comment() -> None:
    check_noop("# tfmigrate: skip-file\n" + TF1)


def test_parse_error_has_position() -> None:
    with pytest.raises(ParseError, match=":2:"):
        rewrite_source("import tensorflow as tf\nx = (\n")


def test_config_ignore_rule_keeps_names() -> None:
    result = rewrite_source("import tensorflow as tf\ny = tf.log(2.0)\n", config=RewriteConfig(ignore=frozenset({"TF108"})))
    assert "tf.log(2.0)" in result.code


def test_find_tf1_usages_reports_lines() -> None:
    found = find_tf1_usages(TF1)
    assert [(f.line, f.message) for f in found] == [
        (2, "TF1 API tf.placeholder"), (3, "TF1 API tf.log"), (4, "TF1 API tf.Session"),
    ]
    assert find_tf1_usages("import numpy as tf\ntf.log(1)\n") == []


def test_rules_are_documented_with_stable_ids() -> None:
    rules = all_rules()
    ids = [r.id for r in rules]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert {"TF101", "TF102", "TF103", "TF104", "TF105", "TF106"} <= set(ids)
    for rule in rules:
        assert rule.summary and len(rule.doc) > 40 and rule.kind in ("auto", "manual")


def test_skip_comment_leaves_that_statement_alone() -> None:
    source = (
        "import tensorflow as tf\n"
        "a = tf.log(2.0)  # tfmigrate: skip\n"
        "b = tf.log(3.0)\n"
    )
    result = rewrite_source(source)
    assert result.code == (
        "import tensorflow as tf\n"
        "a = tf.log(2.0)  # tfmigrate: skip\n"
        "b = tf.math.log(3.0)\n"
    )


def test_find_tf1_usages_through_from_import_alias() -> None:
    found = find_tf1_usages("from tensorflow.compat import v1\nx = v1.placeholder(v1.float32)\n")
    assert [(f.line, f.message) for f in found] == [
        (1, "imports tensorflow.compat.v1"), (2, "TF1 API tf.placeholder"),
    ]


TRAINS = (
    "import tensorflow as tf\n"
    "x = tf.placeholder(tf.float32, [None, 1])\n"
    "w = tf.Variable(tf.zeros([1, 1]))\n"
    "loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
    "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    print(sess.run([train, loss], feed_dict={x: [[1.0]]})[1])\n"
)


@pytest.mark.parametrize("rule", ["TF103", "TF105", "TF110", "TF114"])
def test_a_deselected_pass_the_program_does_not_need_changes_nothing(rule: str) -> None:
    """Rules are selected per pass: a program without that construct converts as before."""
    whole = rewrite_source(TRAINS)
    result = rewrite_source(TRAINS, config=RewriteConfig(ignore=frozenset({rule})))
    assert whole.level == result.level == "idiomatic"
    assert result.code == whole.code


@pytest.mark.parametrize(("rule", "line", "needs"), [
    ("TF106", 5, "optimizer-to-keras"), ("TF110", 9, "saver-to-checkpoint"),
])
def test_a_deselected_pass_the_program_needs_keeps_graph_mode(rule: str, line: int, needs: str) -> None:
    source = TRAINS + "saver = tf.train.Saver()\n"
    result = rewrite_source(source, config=RewriteConfig(ignore=frozenset({rule})))
    assert result.level == "partial"
    assert "tf.compat.v1.Session()" in result.code and "disable_eager_execution" in result.code
    why = [(f.rule, f.line, f.message.split(",")[0]) for f in result.findings if "not selected" in f.message]
    assert why == [("TF190", line, f"{needs} is not selected")]


def test_deselecting_session_conversion_keeps_graph_mode() -> None:
    result = rewrite_source(TF1, config=RewriteConfig(ignore=frozenset({"TF102"})))
    assert result.level == "partial"
    assert "tf.compat.v1.Session()" in result.code and "tf.math.log(x)" in result.code


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cycle_collector_stays_off_during_a_rewrite(enabled: bool) -> None:
    """Its full passes would walk a big file's trees again and again: cost faster than linear.
    Whether it runs afterwards is as the caller had it (once back on, it may pass once over
    what the rewrite made)."""
    passes: list[str] = []

    def count(phase: str, info: dict) -> None:
        passes.append(phase)

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    gc.callbacks.append(count)
    try:
        result = rewrite_source(TF1 * 20)
        assert gc.isenabled() is enabled
    finally:
        gc.callbacks.remove(count)
        (gc.enable if was else gc.disable)()
    assert result.changed and passes.count("start") <= 1
