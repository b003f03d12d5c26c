"""The command line end to end: modes, exit codes, and every kind of bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate.cli import main

TF1 = b"""import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

a = tf.constant(1)  # one
b = tf.constant(2)
c = a + b
sess = tf.Session()
print(sess.run(c))
"""
TF2 = b"""import tensorflow as tf

print(tf.constant(1) + tf.constant(2))
"""


def cli(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    (tmp_path / "old.py").write_bytes(TF1)
    (tmp_path / "new.py").write_bytes(TF2)
    (tmp_path / "plain.py").write_bytes(b"print('no tensors here')\n")
    return tmp_path


def test_help_lists_the_commands_and_exit_codes() -> None:
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("rewrite", "check", "verify", "run", "rules", "rule"):
        assert command in result.output
    assert "123" in result.output and "manual work" in result.output


def test_rewrite_in_place_then_nothing_left_to_do(tree: Path) -> None:
    first = cli("rewrite", ".")
    assert first.exit_code == 1
    rewritten = (tree / "old.py").read_bytes()
    assert rewritten != TF1 and b"Session" not in rewritten and b"# one" in rewritten
    assert (tree / "new.py").read_bytes() == TF2
    assert "1 rewritten, 1 unchanged, 1 skipped, 0 need manual work, 0 failed" in first.stderr
    second = cli("rewrite", ".")
    assert second.exit_code == 0
    assert (tree / "old.py").read_bytes() == rewritten


def test_check_writes_nothing_and_names_the_file(tree: Path) -> None:
    result = cli("rewrite", "--check", ".")
    assert result.exit_code == 1
    assert "would rewrite old.py" in result.stderr
    assert (tree / "old.py").read_bytes() == TF1


def test_diff_applies_with_git_apply(tree: Path) -> None:
    result = cli("rewrite", "--check", "--diff", "old.py")
    assert result.exit_code == 1 and (tree / "old.py").read_bytes() == TF1
    assert result.stdout.startswith("--- a/old.py\n+++ b/old.py\n")
    assert "\x1b[" not in result.stdout  # not a terminal: no colour
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    subprocess.run(["git", "apply", "-"], cwd=tree, input=result.stdout.encode(), check=True)
    cli("rewrite", "--no-cache", "old.py")  # already rewritten by the diff: a no-op
    expected = (tree / "old.py").read_bytes()
    (tree / "old.py").write_bytes(TF1)
    cli("rewrite", "--no-cache", "old.py")
    assert (tree / "old.py").read_bytes() == expected


def test_stdin_mode_writes_code_to_stdout(tree: Path) -> None:
    result = cli("rewrite", "-", "--stdin-filename", "x.py", input=TF1)
    assert result.exit_code == 1
    assert "Session" not in result.stdout and "import tensorflow as tf" in result.stdout
    same = cli("rewrite", "-", input=TF2)
    assert same.exit_code == 0 and same.stdout.encode() == TF2


def test_a_file_that_does_not_parse_is_reported_and_the_run_goes_on(tree: Path) -> None:
    broken = b"import tensorflow as tf\ndef f(:\n"
    (tree / "broken.py").write_bytes(broken)
    result = cli("rewrite", ".")
    assert result.exit_code == 123
    assert "broken.py: error: cannot parse" in result.stderr
    assert (tree / "broken.py").read_bytes() == broken
    assert (tree / "old.py").read_bytes() != TF1


@pytest.mark.parametrize(
    "content, message",
    [
        (b"import tensorflow as tf\x00\x00", "binary"),
        (b"import tensorflow as tf\nx = '\xff\xfe'\n", "cannot parse"),
    ],
)
def test_bad_bytes_are_refused_untouched(tree: Path, content: bytes, message: str) -> None:
    (tree / "bad.py").write_bytes(content)
    result = cli("rewrite", "bad.py")
    assert result.exit_code == 123 and message in result.stderr
    assert (tree / "bad.py").read_bytes() == content


def test_empty_file_is_nothing_to_do(tree: Path) -> None:
    (tree / "empty.py").write_bytes(b"")
    assert cli("rewrite", "empty.py").exit_code == 0
    assert (tree / "empty.py").read_bytes() == b""


def test_encoding_cookie_bom_crlf_and_mode_survive(tree: Path) -> None:
    latin = b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + TF1
    (tree / "latin.py").write_bytes(latin)
    (tree / "bom.py").write_bytes(b"\xef\xbb\xbf" + TF1.replace(b"\n", b"\r\n"))
    (tree / "bom.py").chmod(0o755)
    assert cli("rewrite", "latin.py", "bom.py").exit_code == 1
    assert (tree / "latin.py").read_bytes().startswith(b"# -*- coding: latin-1 -*-\n# caf\xe9\n")
    bom = (tree / "bom.py").read_bytes()
    assert bom.startswith(b"\xef\xbb\xbf") and b"\r\n" in bom and b"\n" not in bom.replace(b"\r\n", b"")
    assert (tree / "bom.py").stat().st_mode & 0o777 == 0o755


def test_read_only_file_is_reported_and_kept(tree: Path) -> None:
    (tree / "old.py").chmod(0o444)
    result = cli("rewrite", "old.py")
    assert result.exit_code == 123 and "read-only" in result.stderr
    assert (tree / "old.py").read_bytes() == TF1


def test_file_deleted_mid_run_is_reported(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from migrate import process

    real = process.rewrite_bytes

    def rewrite_then_delete(source, filename, config):
        result = real(source, filename, config)
        os.unlink(filename)
        return result

    monkeypatch.setattr(process, "rewrite_bytes", rewrite_then_delete)
    result = cli("rewrite", "--no-cache", "old.py")
    assert result.exit_code == 123 and "disappeared" in result.stderr
    assert not (tree / "old.py").exists()


def test_symlink_loop_and_missing_path(tree: Path) -> None:
    os.symlink(tree / "loop.py", tree / "loop.py")
    result = cli("rewrite", "loop.py")
    assert result.exit_code == 123 and "symlink" in result.stderr
    missing = cli("rewrite", "nope.py")
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_deeply_nested_expression_does_not_crash(tree: Path) -> None:
    deep = b"import tensorflow as tf\nx = " + b"(" * 200 + b"1" + b")" * 200 + b"\n"
    (tree / "deep.py").write_bytes(deep)
    result = cli("rewrite", "deep.py")
    assert result.exit_code in (0, 123)
    assert (tree / "deep.py").read_bytes() == deep


def test_gitignored_files_are_not_touched(tree: Path) -> None:
    (tree / ".gitignore").write_text("old.py\n")
    assert cli("rewrite", ".").exit_code == 0
    assert (tree / "old.py").read_bytes() == TF1


def test_cache_makes_a_rerun_free_and_notices_edits(tree: Path) -> None:
    cli("rewrite", ".")  # rewrites old.py
    cli("rewrite", ".")  # sees every file unchanged and remembers them
    report = tree / "report.json"
    cli("rewrite", ".", "--report", str(report))
    files = {f["path"]: f for f in json.loads(report.read_text())["files"]}
    assert files["new.py"]["cached"] and files["old.py"]["cached"]
    (tree / "new.py").write_bytes(TF2 + b"# edited\n")
    cli("rewrite", ".", "--report", str(report))
    files = {f["path"]: f for f in json.loads(report.read_text())["files"]}
    assert not files["new.py"]["cached"]


def test_json_and_github_formats(tree: Path) -> None:
    result = cli("rewrite", "--check", "--format", "json", ".")
    data = json.loads(result.stdout)
    assert {f["path"]: f["status"] for f in data["files"]}["old.py"] == "would rewrite"
    (tree / "broken.py").write_bytes(b"import tensorflow\nif\n")
    github = cli("rewrite", "--check", "--format", "github", "broken.py")
    assert github.stdout.startswith("::error file=broken.py::")


def test_usage_errors_exit_2(tree: Path) -> None:
    assert cli("rewrite").exit_code == 2
    assert cli("rewrite", "--select", "NOPE1", ".").exit_code == 2
    (tree / "pyproject.toml").write_text("[tool.tfmigrate]\nbogus = 1\n")
    bad = cli("rewrite", ".")
    assert bad.exit_code == 2 and "unknown key 'bogus'" in bad.stderr


def test_check_command_lists_tf1_usages(tree: Path) -> None:
    left = cli("check", "old.py")
    assert left.exit_code == 3 and "old.py:" in left.stdout
    assert cli("check", "new.py").exit_code == 0
    assert cli("check", "--no-fail-on-manual", "old.py").exit_code == 0


def test_rules_and_rule(tree: Path) -> None:
    listing = cli("rules")
    assert listing.exit_code == 0
    first_id = listing.stdout.split()[0]
    explained = cli("rule", first_id)
    assert explained.exit_code == 0 and first_id in explained.stdout
    assert cli("rule", "XX000").exit_code == 2


def test_python_dash_m_migrate_is_the_cli() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "migrate", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and "rewrite" in result.stdout


def test_cached_rewrite_writes_what_a_fresh_rewrite_writes(tree: Path) -> None:
    report = tree / "report.json"
    cli("rewrite", "--check", "old.py")
    cli("rewrite", "old.py", "--report", str(report))
    assert json.loads(report.read_text())["files"][0]["cached"]
    from_cache = (tree / "old.py").read_bytes()
    (tree / "old.py").write_bytes(TF1)
    cli("rewrite", "--no-cache", "old.py")
    assert (tree / "old.py").read_bytes() == from_cache != TF1
    assert (tree / ".tfmigrate_cache" / ".gitignore").read_text().endswith("*\n")


def test_run_executes_on_the_engine_with_args_and_exit_status(tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text(
        "import sys\nimport tensorflow as tf\n"
        "print(sys.argv[1:], tf.Session().run(tf.constant(2) * 3))\n"
        "sys.exit(int(sys.argv[1]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "migrate", "run", str(program), "4", "--flag"],
        capture_output=True, text=True, check=False,
    )
    assert done.stdout == "['4', '--flag'] 6\n" and done.returncode == 4


def test_readme_lists_every_rule() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = cli("rules", "--markdown").stdout
    assert table.count("\n") > 3 and table in readme


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```bash\n")[1:]]
    install_and_run, test_command = blocks[0], blocks[1]
    assert install_and_run.startswith("pip install . && tfmigrate rewrite")
    assert test_command in (root / ".ci" / "run").read_text(encoding="utf-8")


def test_exit_zero_only_forgives_changes(tree: Path) -> None:
    assert cli("rewrite", "--check", "--exit-zero", "old.py").exit_code == 0
    (tree / "broken.py").write_bytes(b"import tensorflow\nif\n")
    assert cli("rewrite", "--check", "--exit-zero", "old.py", "broken.py").exit_code == 123


MODERN = b'''import tensorflow.compat.v1 as tf
tf.disable_eager_execution()


def describe(value):
    match value:
        case {"kind": kind, **rest}:
            return f"{kind=} {rest!r}"
        case [first, *_] if (n := len(value)) > 1:
            return f"{first} of {n}"
        case _:
            return "?"


try:
    with (open(__file__) as a, open(__file__) as b):
        pass
except* OSError as group:
    print(group)

c = tf.constant(1) + tf.constant(2)
sess = tf.Session()
print(describe([sess.run(c), 2]))
'''


def test_modern_syntax_is_rewritten_and_kept(tree: Path) -> None:
    (tree / "modern.py").write_bytes(MODERN)
    assert cli("rewrite", "modern.py").exit_code == 1
    out = (tree / "modern.py").read_bytes()
    assert b"Session" not in out
    for kept in (b"match value:", b'f"{kind=} {rest!r}"', b"(n := len(value))",
                 b"with (open(__file__) as a, open(__file__) as b):", b"except* OSError as group:"):
        assert kept in out


def test_workers_give_the_same_results_as_one_process(tree: Path) -> None:
    for i in range(12):
        (tree / f"m{i}.py").write_bytes(TF1.replace(b"# one", f"# file {i}".encode()))
    one = cli("rewrite", "--check", "--no-cache", "-j", "1", "--format", "json", ".")
    two = cli("rewrite", "--check", "--no-cache", "-j", "2", "--format", "json", ".")
    assert one.exit_code == two.exit_code == 1
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert len(json.loads(two.stdout)["files"]) == 15


@pytest.mark.slow
def test_a_20000_line_file_is_rewritten(tree: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import random

    from tf1_corpus import make_file

    big = make_file(0, 20_000, random.Random(0)).encode()
    assert big.count(b"\n") >= 20_000
    (tree / "big.py").write_bytes(big)
    result = cli("rewrite", "--no-cache", "big.py")
    assert result.exit_code in (1, 3), result.stderr[-2000:]
    assert (tree / "big.py").read_bytes() != big
    assert cli("rewrite", "--no-cache", "big.py").exit_code == 0


def test_readme_first_command_shows_the_seed_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    """README's first set-up command: a diff of the seeds, exit 0, nothing written."""
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)
    before = {p: p.read_bytes() for p in (root / "fixtures" / "seeds").glob("*.py")}
    result = cli("rewrite", "--diff", "--exit-zero", "--no-cache", "fixtures/seeds")
    assert result.exit_code == 0, result.stderr[-2000:]
    assert result.stdout.count("+++ b/fixtures/seeds/") >= 10
    assert {p: p.read_bytes() for p in before} == before


PARTIAL = b"""import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

x = tf.placeholder(tf.float32, [None])
w = tf.get_variable('w', shape=[], initializer=tf.constant_initializer(0.5))
train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_mean(tf.square(w * x - x)))
sess = tf.Session()
sess.run(tf.global_variables_initializer())


def feed(batch):
    return {x: batch}


for batch in [np.ones(3), np.ones(2)]:
    sess.run(train, feed_dict=feed(batch))
print(sess.run(w))
"""


def test_fail_on_manual_exits_3_when_code_is_left_for_a_person(tree: Path) -> None:
    (tree / "partial.py").write_bytes(PARTIAL)
    plain = cli("rewrite", "--check", "partial.py")
    strict = cli("rewrite", "--check", "--fail-on-manual", "partial.py")
    assert plain.exit_code == 1 and "need manual work" in plain.stderr
    assert "1 need manual work" in strict.stderr and strict.exit_code == 3


def test_a_change_to_the_rewriter_starts_the_cache_afresh(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tree / "report.json"
    cli("rewrite", "--check", ".")
    cli("rewrite", "--check", ".", "--report", str(report))
    assert json.loads(report.read_text())["files"][0]["cached"]
    import migrate.cache

    monkeypatch.setattr(migrate.cache, "tool_fingerprint", lambda: "another build")
    cli("rewrite", "--check", ".", "--report", str(report))
    assert not any(f["cached"] for f in json.loads(report.read_text())["files"])
