"""A big module parsed in pieces is the very tree one parse of the file gives."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest

from migrate import pieces
from migrate.api import rewrite_source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted([*(ROOT / "fixtures" / "corpus").glob("*.py"), *(ROOT / "fixtures" / "programs").glob("*/*.py")])

# Endings and layouts where libcst's ownership of comments and blank lines is subtle.
LAYOUTS = {
    "comments": (
        "import tensorflow as tf\n\nx = 1\n# top comment\n\n    # indented stray\ndef f():\n"
        "    return 1\n    # body trailing\n\n  # odd indent\n# col0\n\n\nclass A:\n    pass\n\n\n"
        "        # deeper\n\n@dec\n# between\n@dec2(\n  1)\ndef g(): pass\ny = 2; z = 3\nif y:\n"
        "    pass\nelse:\n    pass\n# end comment\n\n    # end indented\n"
    ),
    "after_simple": (
        "import tensorflow as tf\ndef f():\n    pass\nx = 1\n# c\n    # indented after simple\n\n"
        "  # two\ny = 2\n\n\n        # deep\n\t# tab\n@d\ndef g():\n    pass\nz = 3  # trailing\n\n"
        "# before class\nclass K:\n    pass\nw = 4\n\\\n\nv = 5\n# end\n   # end2\n"
    ),
    "crlf_tabs": "import tensorflow as tf\r\n\r\ndef f():\r\n\treturn 1\r\n# c\r\nx = 1\r\n\r\ndef g():\r\n\tpass\r\n",
    "cr_no_final_newline": "import tensorflow as tf\r\rdef f():\r  return 1\r# c\rx = 1\rdef g():\r  pass",
    "late_block": "import tensorflow as tf\nx = 1\ny = 2\nz = (\n  3)\ns = '''\nmulti\n'''\ndef f():\n      return x\nw = 4\n",
    "form_feed": "import tensorflow as tf\n\x0c\ndef f():\n    pass\n\x0c# c\nx = 1 \\\n  + 2\nclass B: pass\n",
    "mixed_newlines": "import tensorflow as tf\ndef f():\r\n    pass\r\n\nx = 1\r\ny = 2\n",
    "indents_vary": "import tensorflow as tf\nclass A:\n\tdef m(self):\n\t\tpass\nx = 1\ndef f():\n    return 2\ny = 3\n",
    "semicolons": "import tensorflow as tf\ndef f():\n    pass\na = 1; b = 2\nc = 3\nif a: pass\nd = 4\n",
}


def same_tree(source: bytes, piece: int) -> bool:
    whole = cst.parse_module(source)
    got = pieces.parse_module(source, ast.parse(source), piece=piece, whole=0)
    return got.deep_equals(whole) and got.bytes == source and (
        got.encoding, got.default_indent, got.default_newline, got.has_trailing_newline,
    ) == (whole.encoding, whole.default_indent, whole.default_newline, whole.has_trailing_newline)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("piece", [1, 40])
def test_layouts_parse_to_the_same_tree(name: str, piece: int) -> None:
    assert same_tree(LAYOUTS[name].encode(), piece)


def test_the_fixture_programs_parse_to_the_same_tree_cut_at_every_statement() -> None:
    checked = 0
    for path in FIXTURES:
        source = path.read_bytes()
        try:
            ast.parse(source)
            cst.parse_module(source)
        except (SyntaxError, cst.ParserSyntaxError, ValueError):
            continue
        assert same_tree(source, 1), path
        checked += 1
    assert checked > 100


def test_pieces_are_cut_after_simple_statements_only() -> None:
    source = LAYOUTS["comments"]
    cuts = pieces._cuts(ast.parse(source), pieces._line_starts(source), len(source), 1)
    starts = [source[at:].split("\n", 1)[0] for at in cuts[1:-1]]
    assert starts == ["if y:"]  # the one statement after a simple one (`y = 2; z = 3`)


def test_other_encodings_take_one_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    parse = cst.parse_module
    monkeypatch.setattr(pieces.cst, "parse_module", lambda s: calls.append(s) or parse(s))
    body = "x = 1\ny = 2\nz = 3\n" * 3
    for source in (b"\xef\xbb\xbf" + body.encode(), ("# -*- coding: latin-1 -*-\n" + body).encode()):
        calls.clear()
        module = pieces.parse_module(source, ast.parse(source), piece=1, whole=0)
        assert calls == [source] and module.bytes == source


def test_a_big_rewrite_is_the_rewrite_of_one_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    source = (ROOT / "fixtures" / "corpus" / "mnist_layers_cnn.py").read_bytes()
    tripled = source + b"\n" + source + b"\n" + source
    whole = rewrite_source(tripled)
    monkeypatch.setattr(pieces, "WHOLE", 0)
    monkeypatch.setattr(pieces, "PIECE", 1)
    in_pieces = rewrite_source(tripled)
    assert (in_pieces.code, in_pieces.level, in_pieces.findings) == (whole.code, whole.level, whole.findings)


def test_the_parser_peak_memory_is_that_of_a_piece(tmp_path: Path) -> None:
    """libcst's native parser holds its whole input's tokens: one parse of 300 KB peaks far
    above the parse of the same file in pieces (growth of ru_maxrss, in a fresh process)."""
    line = "x_{} = tf.reduce_mean(tf.square(y_{} - 1.0))  # a line of a generated file\n"
    text = "import tensorflow as tf\n\n\ndef f():\n    pass\n" + "".join(line.format(i, i) for i in range(4_000))
    script = (
        "import ast, resource, sys\n"
        "import libcst as cst\n"
        "from migrate import pieces\n"
        "source = open(sys.argv[1], 'rb').read()\n"
        "tree = ast.parse(source)\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "module = pieces.parse_module(source, tree) if sys.argv[2] == 'pieces' else cst.parse_module(source)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)\n"
    )
    peaks = {}
    path = tmp_path / "big.py"
    path.write_text(text)
    for how in ("whole", "pieces"):
        proc = subprocess.run([sys.executable, "-c", script, str(path), how], cwd=ROOT,
                              capture_output=True, text=True, check=True)
        peaks[how] = int(proc.stdout.strip())
    assert peaks["pieces"] < 0.6 * peaks["whole"], peaks
