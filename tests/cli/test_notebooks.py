"""Notebooks: code cells rewritten as one program, everything else byte-identical."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from migrate.api import RewriteConfig
from migrate.notebooks import NotebookError, rewrite_notebook, to_script
from migrate.process import rewrite_bytes

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "notebooks" / "add_session.ipynb"
TF1_CELL = ["x = tf.random_normal([2])\n"]


def notebook(*sources: object, ensure_ascii: bool = False) -> bytes:
    """A notebook of code cells, laid out as Jupyter writes it (or with ASCII escapes)."""
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
             for s in sources]
    data = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(data, indent=1, ensure_ascii=ensure_ascii) + "\n").encode()


def cell_sources(code: bytes) -> list[object]:
    return [cell["source"] for cell in json.loads(code)["cells"]]


def test_code_cells_are_rewritten_and_the_rest_is_kept() -> None:
    source = FIXTURE.read_bytes()
    result = rewrite_notebook(source, filename=str(FIXTURE))
    assert result.changed and isinstance(result.code, bytes)
    before, after = json.loads(source), json.loads(result.code)
    code = "".join("".join(c["source"]) for c in after["cells"] if c["cell_type"] == "code")
    assert "Session" not in code and "compat.v1" not in code
    # magics and shell lines come back verbatim, the %%time cell is not touched
    assert after["cells"][1]["source"][:2] == ["%matplotlib inline\n", "!pip list | grep tensorflow\n"]
    assert after["cells"][4] == before["cells"][4]
    # outputs, metadata, ids and markdown are identical
    for old, new in zip(before["cells"], after["cells"]):
        assert {k: v for k, v in old.items() if k != "source"} == {
            k: v for k, v in new.items() if k != "source"
        }
    assert after["cells"][0] == before["cells"][0]
    assert after["metadata"] == before["metadata"]
    # the JSON layout is the notebook's own: re-serialising the old data reproduces the old bytes
    assert json.dumps(before, indent=1, ensure_ascii=False) + "\n" == source.decode()


def test_rewrite_is_stable(tmp_path: Path) -> None:
    result = rewrite_bytes(FIXTURE.read_bytes(), "nb.ipynb", RewriteConfig())
    again = rewrite_bytes(result.code, "nb.ipynb", RewriteConfig())
    assert not again.changed


def test_script_view_for_verify() -> None:
    script, magics = to_script(FIXTURE.read_bytes())
    assert magics == ["%matplotlib inline", "!pip list | grep tensorflow"]
    compile(script, "nb.py", "exec")


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not valid JSON"),
    (b'{"metadata": {}}', "no 'cells'"),
    (b'{"cells":[],  "nbformat": 4}', "layout"),
])
def test_invalid_notebooks_are_refused(content: bytes, message: str) -> None:
    with pytest.raises(NotebookError, match=message):
        rewrite_notebook(content, filename="bad.ipynb")


def test_invalid_notebook_is_reported_by_the_cli_and_untouched(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from migrate.cli import main

    bad = tmp_path / "bad.ipynb"
    bad.write_bytes(b'{"cells": "tensorflow"}')
    good = tmp_path / "good.ipynb"
    shutil.copy(FIXTURE, good)
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", str(bad), str(good)])
    assert result.exit_code == 123 and "invalid notebook" in result.stderr
    assert bad.read_bytes() == b'{"cells": "tensorflow"}'
    assert good.read_bytes() != FIXTURE.read_bytes()


def test_an_untouched_cells_crlf_stays_crlf() -> None:
    untouched = ["import tensorflow as tf\r\n", "a = 1\r\n", "b = 2"]
    touched = ["y = 3\r\n", "x = tf.random_normal([2])\r\n", "z = 4"]
    result = rewrite_bytes(notebook(untouched, touched), "crlf.ipynb", RewriteConfig())
    assert cell_sources(result.code) == [
        untouched, ["y = 3\r\n", "x = tf.random.normal([2])\r\n", "z = 4"],
    ]


def test_a_cr_only_cell_keeps_its_endings() -> None:
    source = notebook("import tensorflow as tf\rx = tf.random_normal([2])\r")
    result = rewrite_bytes(source, "cr.ipynb", RewriteConfig())
    assert cell_sources(result.code) == ["import tensorflow as tf\rx = tf.random.normal([2])\r"]


def test_an_ascii_escaped_notebook_is_rewritten_in_its_own_escaping() -> None:
    source = notebook(["import tensorflow as tf\n", "label = 'caf\u00e9'\n"], TF1_CELL, ensure_ascii=True)
    assert b"\\u00e9" in source and source.isascii()
    result = rewrite_bytes(source, "ascii.ipynb", RewriteConfig())
    assert result.changed and result.code.isascii()
    assert result.code == source.replace(b"random_normal", b"random.normal")


def test_a_line_separator_inside_a_cell_is_code_not_a_line_break() -> None:
    first = ["import tensorflow as tf\n", "text = 'one\u2028two'  # a\u2028b\n"]
    result = rewrite_bytes(notebook(first, TF1_CELL), "sep.ipynb", RewriteConfig())
    assert cell_sources(result.code) == [first, ["x = tf.random.normal([2])\n"]]


def test_a_cell_source_list_holding_a_number_is_an_invalid_notebook(tmp_path: Path) -> None:
    with pytest.raises(NotebookError, match="neither a string nor a list of strings"):
        rewrite_notebook(notebook(["import tensorflow as tf\n", 5], TF1_CELL))
    from click.testing import CliRunner

    from migrate.cli import main

    bad = tmp_path / "bad.ipynb"
    bad.write_bytes(notebook(["import tensorflow as tf\n", 5], TF1_CELL))
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", str(bad)])
    assert result.exit_code == 123 and "invalid notebook" in result.stderr


def test_graph_code_of_an_earlier_cell_moves_into_the_steps_a_later_cell_defines() -> None:
    # cell 2 builds the model, cell 4 trains it: the steps are defined before they are first
    # called, after cell 3, so cell 2 is left empty (it holds nothing cell 3 reads)
    source = notebook(
        ["import numpy as np\n", "import tensorflow as tf\n", "w = tf.Variable([[0.5], [-0.5]])\n",
         "x = tf.placeholder(tf.float32, [None, 2])\n"],
        ["y = tf.matmul(x, w)\n", "loss = tf.reduce_mean(tf.square(y - 1.0))\n",
         "train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"],
        ["data = np.ones([4, 2], np.float32)\n"],
        ["with tf.Session() as sess:\n", "    sess.run(tf.global_variables_initializer())\n",
         "    for i in range(3):\n", "        sess.run(train_op, feed_dict={x: data})\n",
         "        print(sess.run(loss, feed_dict={x: data}))\n"],
    )
    result = rewrite_notebook(source)
    cells = ["".join(s) for s in cell_sources(result.code)]  # type: ignore[arg-type]
    assert result.level == "idiomatic", result.findings
    assert cells[1] == "" and cells[2].startswith("data = np.ones([4, 2], np.float32)\n")
    steps = "".join(cells[2:])
    assert steps.index("def train_step(x):") < steps.index("for i in range(3):")
    assert "for i in range(3):" in cells[3]
    assert "tfmigrate" not in "".join(cells)
    script, _ = to_script(result.code)  # type: ignore[arg-type]
    compile(script, "nb", "exec")


@pytest.mark.parametrize("lines", [
    ['print("step %d, loss %g"\n', "      % (1, 0.5))\n"],
    ["text = '''\n", "%not a magic\n", "'''\n"],
    ["total = 1 + \\\n", "    2\n", "!echo (\n", "%time x = (\n"],
])
def test_a_line_continuing_an_expression_is_no_magic(lines: list[str]) -> None:
    script, magics = to_script(notebook("".join(lines)))
    python = [line for line in lines if not line.startswith(("!", "%time"))]
    assert "".join(python) in script
    assert magics == [line.rstrip("\n") for line in lines if line.startswith(("!", "%time"))]
