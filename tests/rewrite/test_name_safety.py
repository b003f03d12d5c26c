"""A rewrite that would read a name the original had bound, and it does not, is refused."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate import api, name_safety, process
from migrate.api import RewriteConfig
from migrate.cli import main
from migrate.move import optimizer_objects

# `params` is read by the update after its own statement left the graph.
PARAMS_PROGRAM = textwrap.dedent("""\
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.get_variable('w', [3, 1], initializer=tf.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    params = tf.trainable_variables()
    grads = tf.gradients(loss, params)
    train_op = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(grads, params))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            sess.run(train_op, feed_dict={x: np.ones((2, 3)), y: np.ones((2, 1))})
    """).encode()
GOOD_PROGRAM = b"import tensorflow as tf\ny = tf.log(2.0)\n"


def test_a_name_the_rewrite_leaves_unbound_is_named_with_its_line() -> None:
    before = "import tensorflow as tf\nparams = []\nw = tf.Variable(1.0)\nprint(params, w)\n"
    after = "import tensorflow as tf\nw = tf.Variable(1.0)\nprint(params, w, n_out)\n"
    assert name_safety.refusal(before, after) == (
        "rewrite refused: it would read undefined names params (line 3), n_out (line 3)"
    )


def test_a_name_read_in_a_function_and_bound_nowhere_is_found() -> None:
    after = "def step():\n    return params[0]\n"
    assert name_safety.refusal("params = [1]\n", after) == (
        "rewrite refused: it would read undefined name params (line 2)"
    )


def test_a_local_read_before_its_binding_is_found() -> None:
    before = "def f():\n    n = 1\n    return n\n"
    after = "def f():\n    print(n)\n    n = 1\n    return n\n"
    assert "undefined name n (line 2)" in (name_safety.refusal(before, after) or "")


def test_names_the_original_already_left_undefined_are_not_the_rewrites() -> None:
    before = b"import tensorflow as tf\ndisplay(tf.log(x))\n"
    after = b"import tensorflow as tf\ndisplay(tf.math.log(x))\n"
    assert name_safety.refusal(before, after) is None


def test_an_output_python_cannot_parse_is_refused_and_an_input_it_cannot_is_not_judged() -> None:
    assert name_safety.refusal("x = 1\n", "x = (\n") == "rewrite refused: its output is not valid Python"
    assert name_safety.refusal("print x\n", "print(y)\n") is None


def test_a_notebooks_code_cells_are_checked_as_one_program_and_told_by_cell() -> None:
    def notebook(*cells: str) -> bytes:
        return json.dumps({"cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# title"},
            *({"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
               "source": c} for c in cells),
        ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1).encode()

    before = notebook("import tensorflow as tf\nparams = [1]\n", "%time x = 1\nprint(params)\n")
    kept = notebook("import tensorflow as tf\nparams = [1]\n", "%time x = 1\nprint(params)\n")
    dropped = notebook("import tensorflow as tf\n", "%time x = 1\nprint(params)\n")
    assert name_safety.refusal(before, kept, notebook=True) is None
    assert name_safety.refusal(before, dropped, notebook=True) == (
        "rewrite refused: it would read undefined name params (cell 3, line 2)"
    )


@pytest.fixture
def dropping_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The program move with a bug: reads of a dropped `tf.trainable_variables()` listing stay."""
    monkeypatch.setattr(optimizer_objects, "collections_read", lambda move, expr: expr)


@pytest.fixture
def dropping_rewriter(dropping_move: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """That bug where the move's own check misses it: only the last check before writing is left."""
    monkeypatch.setattr(api, "new_reads", lambda source, code: [])


@pytest.mark.usefixtures("dropping_move")
def test_a_move_that_drops_a_binding_gives_way_to_graph_mode() -> None:
    result = process.rewrite_bytes(PARAMS_PROGRAM, "train.py", RewriteConfig())
    assert result.level == "partial"
    assert "the program move would leave params unbound" in result.fallback.message
    assert b"params = tf.compat.v1.trainable_variables()" in result.code  # type: ignore[operator]


@pytest.mark.usefixtures("dropping_rewriter")
def test_a_rewrite_that_drops_a_binding_is_refused_and_not_written(tmp_path: Path) -> None:
    with pytest.raises(process.UnsafeRewrite, match="undefined name params"):
        process.rewrite_bytes(PARAMS_PROGRAM, "train.py", RewriteConfig())
    path = tmp_path / "train.py"
    path.write_bytes(PARAMS_PROGRAM)
    result = process.process_file(path, process.Job())
    assert result.status == process.FAILED
    assert result.error is not None and result.error.startswith("rewrite refused: it would read undefined name params (line ")
    assert path.read_bytes() == PARAMS_PROGRAM


@pytest.mark.usefixtures("dropping_rewriter")
def test_a_refused_rewrite_fails_the_run_and_the_other_files_are_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    (tmp_path / "train.py").write_bytes(PARAMS_PROGRAM)
    (tmp_path / "good.py").write_bytes(GOOD_PROGRAM)
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", "-j", "1", "."], catch_exceptions=False)
    assert result.exit_code == 123, result.output
    assert "train.py: error: rewrite refused: it would read undefined name params (line " in result.output
    assert (tmp_path / "train.py").read_bytes() == PARAMS_PROGRAM
    assert b"tf.math.log" in (tmp_path / "good.py").read_bytes()


def test_the_params_program_itself_is_rewritten_and_passes() -> None:
    result = process.rewrite_bytes(PARAMS_PROGRAM, "train.py", RewriteConfig())
    assert result.changed and b"trainable_variables" not in result.code  # type: ignore[operator]


@pytest.mark.usefixtures("dropping_rewriter")
def test_a_notebooks_refused_rewrite_names_the_cell_and_its_line() -> None:
    graph, session = PARAMS_PROGRAM.decode().split("\nwith tf.Session()")
    notebook = json.dumps({"cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
        for source in (graph + "\n", "with tf.Session()" + session)
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1).encode()
    # The step function, update line included, is the first cell's rewrite.
    with pytest.raises(process.UnsafeRewrite, match=r"undefined name params \(cell 1, line 13\)$"):
        process.rewrite_bytes(notebook, "train.ipynb", RewriteConfig())
