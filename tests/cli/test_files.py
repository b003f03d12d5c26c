"""Discovery, reading and atomic writing: the file layer under every command."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from migrate.files import Excluder, FileProblem, discover, read_bytes, write_atomic


def names(found) -> list[str]:
    return sorted(Path(p).as_posix() for p in found)


def make(tmp_path: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_discovery_recurses_and_skips_default_excludes(tmp_path: Path) -> None:
    make(tmp_path, {
        "a.py": "", "pkg/b.py": "", "pkg/notes.txt": "", "nb.ipynb": "{}",
        ".venv/lib/c.py": "", "build/d.py": "", "x/site-packages/e.py": "", "pkg/__pycache__/f.py": "",
    })
    found = names(discover([tmp_path], Excluder()))
    rel = [Path(p).relative_to(tmp_path).as_posix() for p in found]
    assert rel == ["a.py", "nb.ipynb", "pkg/b.py"]


def test_gitignore_is_honoured_with_negation_and_nesting(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    make(tmp_path, {
        ".gitignore": "gen_*.py\n!gen_keep.py\n/only_root.py\nlogs/\n",
        "gen_a.py": "", "gen_keep.py": "", "only_root.py": "", "sub/only_root.py": "",
        "logs/x.py": "", "sub/.gitignore": "*.py\n", "sub/deeper/y.py": "", "main.py": "",
    })
    found = [Path(p).relative_to(tmp_path).as_posix() for p in discover([tmp_path], Excluder())]
    assert sorted(found) == ["gen_keep.py", "main.py"]
    everything = discover([tmp_path], Excluder(respect_gitignore=False))
    assert len(list(everything)) == 7


def test_explicit_files_are_taken_unless_force_exclude(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    make(tmp_path, {"build/x.py": ""})
    target = tmp_path / "build" / "x.py"
    assert names(discover([target], Excluder())) == [target.as_posix()]
    assert names(discover([target], Excluder(), force_exclude=True)) == []


def test_user_patterns_with_and_without_slash(tmp_path: Path) -> None:
    make(tmp_path, {"a/gen.py": "", "a/keep.py": "", "third_party/lib/z.py": ""})
    excluder = Excluder(("gen.py", "third_party/**"))
    rel = [Path(p).relative_to(tmp_path).as_posix() for p in discover([tmp_path], excluder)]
    assert rel == ["a/keep.py"]


def test_symlink_loops_do_not_hang_discovery(tmp_path: Path) -> None:
    make(tmp_path, {"pkg/a.py": ""})
    os.symlink(tmp_path / "pkg", tmp_path / "pkg" / "loop")
    os.symlink(tmp_path / "self.py", tmp_path / "self.py")  # a file symlink to itself
    found = names(discover([tmp_path], Excluder()))
    assert any(p.endswith("pkg/a.py") for p in found)
    loop = next(Path(p) for p in found if p.endswith("self.py"))
    with pytest.raises(FileProblem, match="symlink"):
        read_bytes(loop)


def test_read_rejects_binary_missing_and_folders(tmp_path: Path) -> None:
    (tmp_path / "bin.py").write_bytes(b"import tensorflow\x00\x01")
    with pytest.raises(FileProblem, match="binary"):
        read_bytes(tmp_path / "bin.py")
    with pytest.raises(FileProblem, match="not found"):
        read_bytes(tmp_path / "gone.py")
    (tmp_path / "dir.py").mkdir()
    with pytest.raises(FileProblem, match="directory"):
        read_bytes(tmp_path / "dir.py")


def test_read_reports_permission_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.py"
    path.write_text("x = 1\n")

    real_open = os.open

    def denied(target, *args, **kwargs):  # root reads any file: refuse this one by hand
        if Path(target) == path:
            raise PermissionError(13, "Permission denied")
        return real_open(target, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(FileProblem, match="permission denied"):
        read_bytes(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_bytes(fifo)
        except BaseException as error:  # noqa: BLE001 - handed to the test thread
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():  # blocked opening the FIFO: a writer lets it go, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join()
        pytest.fail("read_bytes waited for a writer on a FIFO")
    assert len(outcome) == 1 and isinstance(outcome[0], FileProblem), outcome
    assert "FIFO" in str(outcome[0])


def test_atomic_write_keeps_mode_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "script.py"
    path.write_bytes(b"old\r\n")
    path.chmod(0o755)
    write_atomic(path, b"new\r\n", expected=b"old\r\n")
    assert path.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
    assert [p.name for p in tmp_path.iterdir()] == ["script.py"]


def test_atomic_write_refuses_read_only_changed_and_deleted_files(tmp_path: Path) -> None:
    path = tmp_path / "ro.py"
    path.write_bytes(b"old")
    path.chmod(0o444)
    with pytest.raises(FileProblem, match="read-only"):
        write_atomic(path, b"new", expected=b"old")
    assert path.read_bytes() == b"old"
    path.chmod(0o644)
    path.write_bytes(b"edited meanwhile")
    with pytest.raises(FileProblem, match="changed while"):
        write_atomic(path, b"new", expected=b"old")
    assert path.read_bytes() == b"edited meanwhile"
    path.unlink()
    with pytest.raises(FileProblem, match="disappeared"):
        write_atomic(path, b"new", expected=b"old")
    assert not path.exists()


def test_atomic_write_through_a_symlink_replaces_the_target(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_bytes(b"old")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    write_atomic(link, b"new", expected=b"old")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_an_edit_saved_while_the_temporary_file_is_written_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "edited.py"
    path.write_bytes(b"old")
    real_fsync = os.fsync

    def save_meanwhile(fd: int) -> None:  # the user saves while the new bytes reach the disk
        path.write_bytes(b"the user's edit")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", save_meanwhile)
    with pytest.raises(FileProblem, match="changed while"):
        write_atomic(path, b"new", expected=b"old")
    assert path.read_bytes() == b"the user's edit"
    assert [p.name for p in tmp_path.iterdir()] == ["edited.py"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another owner needs root")
def test_atomic_write_keeps_owner_and_group(tmp_path: Path) -> None:
    path = tmp_path / "theirs.py"
    path.write_bytes(b"old")
    os.chown(path, 1234, 4321)
    path.chmod(0o640)
    write_atomic(path, b"new", expected=b"old")
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (1234, 4321)
    assert stat.S_IMODE(info.st_mode) == 0o640 and path.read_bytes() == b"new"


def test_atomic_write_keeps_hard_links(tmp_path: Path) -> None:
    path = tmp_path / "one.py"
    path.write_bytes(b"old and longer")
    other = tmp_path / "other.py"
    os.link(path, other)
    write_atomic(path, b"new", expected=b"old and longer")
    assert other.read_bytes() == path.read_bytes() == b"new"
    assert path.stat().st_ino == other.stat().st_ino and path.stat().st_nlink == 2
    other.write_bytes(b"edited meanwhile")
    with pytest.raises(FileProblem, match="changed while"):
        write_atomic(path, b"newer", expected=b"new")
    assert path.read_bytes() == b"edited meanwhile"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.py", "other.py"]


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_no_temporary_file_is_left_when_the_write_is_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interrupt: BaseException
) -> None:
    path = tmp_path / "script.py"
    path.write_bytes(b"old")

    def fail(fd: int) -> None:
        raise interrupt

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(FileProblem if isinstance(interrupt, OSError) else KeyboardInterrupt):
        write_atomic(path, b"new", expected=b"old")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["script.py"]


def test_a_symlink_to_a_file_outside_the_tree_is_skipped_and_told(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "theirs.py"
    make(tmp_path, {"elsewhere/theirs.py": "", "tree/mine.py": ""})
    (tmp_path / "tree" / "link.py").symlink_to(outside)
    told: list[tuple[str, str]] = []
    found = discover([tmp_path / "tree"], Excluder(), skipped=lambda p, why: told.append((p.name, why)))
    assert [Path(p).name for p in found] == ["mine.py"]
    assert told == [("link.py", f"a symlink to {outside}, outside {tmp_path / 'tree'}")]
    (tmp_path / "tree" / "pyproject.toml").write_text("")  # named, it is judged by its project
    assert list(discover([tmp_path / "tree" / "link.py"], Excluder(), skipped=lambda p, why: None)) == []


def test_a_symlink_inside_the_tree_yields_its_target_once(tmp_path: Path) -> None:
    make(tmp_path, {"pkg/real.py": ""})
    (tmp_path / "pkg" / "alias.py").symlink_to(tmp_path / "pkg" / "real.py")
    (tmp_path / "top.py").symlink_to(tmp_path / "pkg" / "real.py")
    told: list[Path] = []
    found = list(discover([tmp_path / "pkg", tmp_path / "top.py"], Excluder(),
                          skipped=lambda p, why: told.append(p)))
    assert [Path(p).name for p in found] == ["alias.py"] and told == []
    os.link(tmp_path / "pkg" / "real.py", tmp_path / "pkg" / "hard.py")
    assert [Path(p).name for p in discover([tmp_path / "pkg"], Excluder())] == ["alias.py"]


def test_rewrite_leaves_a_file_outside_the_tree_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from migrate.cli import main

    tf1 = "import tensorflow as tf\nx = tf.random_normal([2])\n"
    make(tmp_path, {"elsewhere/theirs.py": tf1, "tree/mine.py": tf1})
    (tmp_path / "tree" / "link.py").symlink_to(tmp_path / "elsewhere" / "theirs.py")
    monkeypatch.chdir(tmp_path / "tree")
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", "."])
    assert result.exit_code == 1, result.output
    assert (tmp_path / "elsewhere" / "theirs.py").read_text() == tf1
    assert (tmp_path / "tree" / "mine.py").read_text() != tf1
    assert "link.py: skipped: a symlink to" in result.stderr


def test_an_interrupted_write_in_place_puts_the_original_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "one.py"
    path.write_bytes(b"old and longer")
    os.link(path, tmp_path / "other.py")
    calls: list[int] = []

    def interrupted_once(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"new", expected=b"old and longer")
    assert (tmp_path / "other.py").read_bytes() == path.read_bytes() == b"old and longer"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rewrite_through_one_hard_link_rewrites_every_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    from click.testing import CliRunner

    from migrate.cli import main

    tf1 = "import tensorflow as tf\nx = tf.random_normal([2])\n"
    make(tmp_path, {f"m{i}.py": tf1 for i in range(8)})  # enough files for a worker pool
    os.link(tmp_path / "m0.py", tmp_path / "z_link.py")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", "-j", jobs, "."])
    assert result.exit_code == 1, result.stderr
    assert (tmp_path / "z_link.py").read_text() == (tmp_path / "m0.py").read_text() != tf1
    assert (tmp_path / "m0.py").stat().st_nlink == 2


def test_a_skipped_symlink_is_counted_and_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from click.testing import CliRunner

    from migrate.cli import main

    tf1 = "import tensorflow as tf\nx = tf.random_normal([2])\n"
    make(tmp_path, {"elsewhere/theirs.py": tf1, "tree/mine.py": tf1})
    (tmp_path / "tree" / "link.py").symlink_to(tmp_path / "elsewhere" / "theirs.py")
    monkeypatch.chdir(tmp_path / "tree")
    text = CliRunner().invoke(main, ["rewrite", "--check", "--no-cache", "."])
    assert "1 would be rewritten, 0 unchanged, 1 skipped" in text.output
    report = json.loads(CliRunner().invoke(main, ["rewrite", "--check", "--no-cache", "--format", "json", "."]).stdout)
    (skipped,) = [f for f in report["files"] if f["status"] == "skipped"]
    assert skipped["path"].endswith("link.py") and skipped["note"].startswith("a symlink to")
    assert "1 skipped" in report["summary"]
