"""Findings as a user reads them: one per construct and rule, in line order, 1-based columns,
the program's own names, and a summary that says what a person still has to do."""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest
from click.testing import CliRunner

from migrate.api import find_tf1_usages, rewrite_source
from migrate.cli import main
from migrate.finding_list import tidy
from migrate.report import Finding

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SOURCES = sorted(FIXTURES.glob("programs/*/before.py")) + sorted((FIXTURES / "corpus").glob("*.py"))

PLACEHOLDERS = dedent("""\
    import tensorflow as tf

    a = tf.placeholder(tf.float32)
    b = tf.placeholder(tf.float32)
    c = a * b + 1.0
    with tf.Session() as sess:
        print(sess.run(c, feed_dict={a: 2.0, b: 3.0}))
    """)

MODEL_CLASS = dedent("""\
    import tensorflow as tf


    class Model(object):
        def __init__(self):
            self.x = tf.placeholder(tf.float32, [None])
            self.w = tf.Variable(2.0)
            self.loss = tf.reduce_sum(self.x * self.w)


    m = Model()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(m.loss, {m.x: [1.0, 2.0]}))
    """)

FALLS_BACK = dedent("""\
    import tensorflow as tf
    x = tf.placeholder(tf.float32, [None, 3, 2])
    cell = tf.nn.rnn_cell.BasicRNNCell(4)
    outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
    """)


def _rows(source: str) -> list[tuple[int, int, str, str]]:
    return [(f.line, f.col, f.rule, f.message) for f in rewrite_source(source).findings]


def test_a_placeholder_script_reports_each_construct_once_in_line_order() -> None:
    assert _rows(PLACEHOLDERS) == [
        (3, 1, "TF102", "placeholder a → argument of compute_c()"),
        (4, 1, "TF102", "placeholder b → argument of compute_c()"),
        (6, 1, "TF102", "graph/session context unwrapped"),
        (7, 5, "TF102", "run site → compute_c()"),
    ]


def test_class_attributes_are_named_as_the_user_wrote_them() -> None:
    messages = [message for *_, message in _rows(MODEL_CLASS)]
    assert "placeholder self.x → argument of self.compute_loss()" in messages
    assert not [m for m in messages if "self__" in m]


def test_an_indented_statement_is_reported_at_its_first_character() -> None:
    (line, col, *_), = [r for r in _rows(MODEL_CLASS) if r[3].startswith("placeholder")]
    assert (line, col) == (6, 9)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_findings_are_sorted_distinct_one_based_and_user_named(source: Path) -> None:
    findings = rewrite_source(source.read_text(encoding="utf-8")).findings
    assert [(f.line, f.col) for f in findings] == sorted((f.line, f.col) for f in findings)
    assert all(f.col >= 1 for f in findings)
    assert not [f.message for f in findings if "self__" in f.message]
    constructs = [(f.rule, f.line, f.message.split(" → ")[0]) for f in findings
                  if f.message.startswith(("placeholder ", "run site"))]
    assert len(constructs) == len(set(constructs))


def test_the_fallback_reason_stays_named_while_the_list_is_sorted() -> None:
    result = rewrite_source(FALLS_BACK)
    assert result.level == "partial"
    assert result.fallback is not None and result.fallback.line == 4
    assert "tf.nn.static_rnn" in result.fallback.message
    assert result.findings[0].line < result.fallback.line  # the list is in line order


def test_check_reports_one_based_columns() -> None:
    findings = find_tf1_usages("import tensorflow as tf\nif True:\n    x = tf.placeholder(tf.float32)\n")
    assert [(f.line, f.col) for f in findings] == [(3, 9)]


def test_tidy_merges_what_two_passes_said_about_one_construct() -> None:
    said = [
        Finding("TF102", 7, 0, "run site → b()", "fixed"),
        Finding("TF102", 3, 0, "placeholder a becomes a function argument", "fixed"),
        Finding("TF108", 5, 0, "tf.confusion_matrix → tf.math.confusion_matrix", "fixed"),
        Finding("TF102", 3, 0, "placeholder a → argument of b()", "fixed"),
        Finding("TF108", 5, 0, "arguments of tf.confusion_matrix adapted to TF2", "fixed"),
        Finding("TF102", 3, 0, "placeholder a → argument of c()", "fixed"),
        Finding("TF102", 7, 0, "run site → c()", "fixed"),
        Finding("TF106", 5, 0, "minimize → tape + apply_gradients", "fixed"),
    ]
    source = "\n\n\n\n  y = 1\n\n    z = 2\n"
    assert [(f.line, f.col, f.message) for f in tidy(said, source)] == [
        (3, 1, "placeholder a → argument of b(), c()"),
        (5, 3, "tf.confusion_matrix → tf.math.confusion_matrix, arguments adapted to TF2"),
        (5, 3, "minimize → tape + apply_gradients"),
        (7, 5, "run sites → b(), c()"),
    ]


def test_tidy_keeps_different_constructs_and_kinds_apart() -> None:
    said = [
        Finding("TF102", 2, 0, "placeholder a → argument of f()", "fixed"),
        Finding("TF102", 2, 0, "placeholder b → argument of f()", "fixed"),
        Finding("TF103", 2, 0, "placeholder a → argument of g()", "fixed"),
    ]
    assert [f.message for f in tidy(said, "\nx\n")] == [f.message for f in said]


def test_tidy_reads_a_stdlib_column_in_characters() -> None:
    # col_offset counts UTF-8 bytes: "é" is two of them, one column
    said = [Finding("TF190", 1, 9, "TF1 API tf.Session", "manual")]
    assert tidy(said, "s = 'é'; tf.Session()\n")[0].col == 9


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    (tmp_path / "f.py").write_text(PLACEHOLDERS)
    (tmp_path / "rnn.py").write_text(FALLS_BACK)
    return tmp_path


def test_text_output_is_sorted_one_based_and_names_the_manual_work(files: Path) -> None:
    run = CliRunner().invoke(main, ["rewrite", "--check", "f.py", "rnn.py"], catch_exceptions=False)
    lines = run.stderr.splitlines()
    assert [line for line in lines if line.startswith("f.py:")] == [
        "f.py:3:1 TF102 placeholder a → argument of compute_c()",
        "f.py:4:1 TF102 placeholder b → argument of compute_c()",
        "f.py:6:1 TF102 graph/session context unwrapped",
        "f.py:7:5 TF102 run site → compute_c()",
    ]
    positions = [tuple(map(int, line.split(" ")[0].split(":")[1:3])) for line in lines if line.startswith("rnn.py:")]
    assert positions == sorted(positions)
    manual = [line for line in lines if line.startswith("manual work: ")]
    assert len(manual) == 1 and manual[0].startswith("manual work: rnn.py: ")
    assert "stays TF1 graph code: rnn.py:4:1 TF190 TF1 code outside the program model (tf.nn.static_rnn)" in manual[0]


def test_json_output_is_sorted_and_carries_the_fallback(files: Path) -> None:
    run = CliRunner().invoke(main, ["rewrite", "--check", "--format", "json", "f.py", "rnn.py"],
                             catch_exceptions=False)
    report = {f["path"]: f for f in json.loads(run.stdout)["files"]}
    for entry in report.values():
        assert [(f["line"], f["col"]) for f in entry["findings"]] == sorted((f["line"], f["col"]) for f in entry["findings"])
    assert report["f.py"]["fallback"] is None
    assert report["rnn.py"]["fallback"]["line"] == 4
    assert report["rnn.py"]["fallback"] in report["rnn.py"]["findings"]
