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
