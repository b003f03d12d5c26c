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
