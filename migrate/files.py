"""Finding the files to work on, and reading and writing them without losing a byte.

Discovery follows black and ruff: directories are recursed, ``.gitignore`` files are
honoured, virtualenvs and build folders are skipped, and files named explicitly are
taken even when excluded unless ``--force-exclude`` says otherwise.
Writes are atomic (a temporary file in the same folder, compared with what was read,
then ``os.replace``) and keep the file's mode, owner and hard links; the bytes given are
the bytes written, so encoding, BOM and line endings are whatever the rewriter returned.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")

DEFAULT_EXCLUDES = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".env",
    "env",
    ".tox",
    ".nox",
    ".eggs",
    "*.egg-info",
    "build",
    "dist",
    "site-packages",
    "__pycache__",
    "node_modules",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".ipynb_checkpoints",
    ".tfmigrate_cache",
)


class FileProblem(Exception):
    """A file that cannot be read or written; the message says why, for the user."""


def _glob_to_regex(pattern: str) -> str:
    """Translate one gitignore glob (no leading/trailing slash handling) into a regex."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        elif char == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class IgnoreRule:
    """One line of a .gitignore file, anchored at the folder that holds it."""

    base: Path
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool

    @classmethod
    def parse(cls, base: Path, line: str) -> IgnoreRule | None:
        line = line.rstrip("\n").rstrip("\r")
        if not line.strip() or line.startswith("#"):
            return None
        if not line.endswith("\\ "):
            line = line.rstrip()
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        line = line.lstrip("/")
        body = _glob_to_regex(line)
        regex = re.compile(("" if anchored else "(?:.*/)?") + body + "$")
        return cls(base, regex, negated, dir_only)

    def matches(self, path: Path, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        try:
            relative = path.relative_to(self.base).as_posix()
        except ValueError:
            return False
        return bool(self.regex.match(relative))


@dataclass
class Excluder:
    """Decides which paths to skip: default folders, user patterns and .gitignore files."""

    patterns: tuple[str, ...] = DEFAULT_EXCLUDES
    respect_gitignore: bool = True
    _gitignores: dict[Path, list[IgnoreRule]] = field(default_factory=dict)
    _name_patterns: list[re.Pattern[str]] = field(default_factory=list)
    _path_patterns: list[re.Pattern[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for pattern in self.patterns:
            if "/" in pattern:
                self._path_patterns.append(re.compile(_glob_to_regex(pattern.strip("/")) + "$"))
            else:
                self._name_patterns.append(re.compile(_glob_to_regex(pattern)))

    def _rules_for(self, folder: Path) -> list[IgnoreRule]:
        if folder not in self._gitignores:
            rules: list[IgnoreRule] = []
            gitignore = folder / ".gitignore"
            if gitignore.is_file():
                try:
                    text = gitignore.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    text = ""
                for line in text.splitlines():
                    rule = IgnoreRule.parse(folder, line)
                    if rule is not None:
                        rules.append(rule)
            self._gitignores[folder] = rules
        return self._gitignores[folder]

    def excluded_by_pattern(self, path: Path) -> bool:
        """A pattern without ``/`` matches a file or folder name; one with ``/`` a path's tail."""
        if any(pattern.fullmatch(path.name) for pattern in self._name_patterns):
            return True
        posix = path.as_posix()
        return any(pattern.search(posix) for pattern in self._path_patterns)

    def gitignored(self, path: Path, is_dir: bool, root: Path) -> bool:
        """Apply every .gitignore from ``root`` down to the path's folder; the last match wins."""
        if not self.respect_gitignore:
            return False
        ignored = False
        folders = [root, *[p for p in reversed(path.parents) if root in p.parents]]
        for folder in folders:
            for rule in self._rules_for(folder):
                if rule.matches(path, is_dir):
                    ignored = not rule.negated
        return ignored

    def excluded(self, path: Path, is_dir: bool, root: Path) -> bool:
        return self.excluded_by_pattern(path) or self.gitignored(path, is_dir, root)

    def excluded_anywhere(self, path: Path, root: Path) -> bool:
        """Whether the file or any folder between ``root`` and it is excluded."""
        folders = [p for p in reversed(path.parents) if root in p.parents]
        return any(self.excluded(folder, True, root) for folder in folders) or self.excluded(
            path, False, root
        )


#: The temporary file a write goes through: ``.<name>.<writer's pid>.<random>.tfmigrate``.
TEMP_SUFFIX = ".tfmigrate"
_TEMP_NAME = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def leftover_writer(path: Path) -> int | None:
    """The pid of the run that left ``path``, when it is a temporary file of ours whose
    writer is gone (killed before it could rename or remove it), else None.

    A writer that is still alive, or a pid now used by another user's process, keeps its
    file: only a file nobody can still be writing is called left over.
    """
    match = _TEMP_NAME.fullmatch(path.name)
    if match is None:
        return None
    pid = int(match["pid"])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return pid
    except (PermissionError, OverflowError):
        return None
    return None


def _project_root(start: Path) -> Path:
    """The nearest folder holding .git or pyproject.toml, else the working folder if it holds
    ``start``, else ``start``: excludes and .gitignore rules apply from there down."""
    for folder in [start, *start.parents]:
        if (folder / ".git").exists() or (folder / "pyproject.toml").is_file():
            return folder
    cwd = Path.cwd()
    return cwd if cwd == start or cwd in start.parents else start


def _outside(path: Path, tree: Path) -> Path | None:
    """Where a symlink ``path`` leads, when that is outside ``tree`` (a resolved folder)."""
    if not path.is_symlink():
        return None
    target = Path(os.path.realpath(path))
    return None if target == tree or tree in target.parents else target


def _identity(path: Path) -> tuple[int, int] | str:
    """The file behind a name: hard links and symlinks to one file share it."""
    try:
        info = os.stat(path)
    except OSError:
        return os.path.realpath(path)  # a broken link or a loop: reading it reports why
    return info.st_dev, info.st_ino


def discover(
    paths: Iterable[Path],
    excluder: Excluder,
    *,
    force_exclude: bool = False,
    skipped: Callable[[Path, str], None] = lambda path, why: None,
    leftover: Callable[[Path, int], None] = lambda path, pid: None,
) -> Iterator[Path]:
    """Yield source files under ``paths`` in a stable order, each file once under one name.

    Folders are walked without following symlinked folders (no loops); a file named
    on the command line is yielded even when excluded, unless ``force_exclude``. A
    symlink to a file outside the tree (the folder walked; for a file named, its project
    root) is not yielded but told to ``skipped``, as black does: rewriting it would change
    a file the user did not ask about. A temporary file left in a walked folder by a
    killed run, or beside a file named, is told to ``leftover`` with the pid of its writer.
    """
    seen: set[tuple[int, int] | str] = set()

    def fresh(path: Path, tree: Path) -> bool:
        target = _outside(path, tree)
        if target is not None:
            skipped(path, f"a symlink to {target}, outside {tree}")
            return False
        identity = _identity(path)
        if identity in seen:
            return False
        seen.add(identity)
        return True

    for given in paths:
        given = Path(given)
        absolute = Path(os.path.abspath(given))
        root = _project_root(absolute if absolute.is_dir() else absolute.parent)
        if not given.is_dir():
            if force_exclude and excluder.excluded_anywhere(absolute, root):
                continue
            for temp in sorted(given.parent.glob(f".{glob.escape(given.name)}.*{TEMP_SUFFIX}")):
                if pid := leftover_writer(temp):
                    leftover(temp, pid)
            if fresh(given, Path(os.path.realpath(root))):
                yield given
            continue
        tree = Path(os.path.realpath(given))
        for folder, dirnames, filenames in os.walk(given, followlinks=False):
            folder_path = Path(folder)
            dirnames[:] = sorted(
                d
                for d in dirnames
                if not excluder.excluded(Path(os.path.abspath(folder_path / d)), True, root)
            )
            for filename in sorted(filenames):
                if filename.endswith(TEMP_SUFFIX) and (pid := leftover_writer(folder_path / filename)):
                    leftover(folder_path / filename, pid)
                if not filename.endswith(SOURCE_SUFFIXES):
                    continue
                path = folder_path / filename
                if not excluder.excluded(Path(os.path.abspath(path)), False, root) and fresh(path, tree):
                    yield path


#: What a path that is not a regular file is, by the test its mode passes.
_NOT_REGULAR: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a regular file; not read"),
    (stat.S_ISSOCK, "is a socket, not a regular file; not read"),
    (stat.S_ISCHR, "is a character device, not a regular file; not read"),
    (stat.S_ISBLK, "is a block device, not a regular file; not read"),
)


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file. It is opened without blocking and checked once open (not
    before, where it could be swapped): reading a FIFO would wait for a writer forever."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileProblem(next((why for test, why in _NOT_REGULAR if test(mode)), "is not a regular file"))
        return handle.read()


def read_bytes(path: Path) -> bytes:
    """Read a file for rewriting; every failure becomes one clear :class:`FileProblem`."""
    try:
        if path.is_symlink() and not path.exists():
            raise FileProblem("broken symlink or symlink loop")
        data = _read_regular(path)
    except FileProblem:
        raise
    except FileNotFoundError:
        raise FileProblem("file not found (deleted?)") from None
    except IsADirectoryError:
        raise FileProblem("is a directory") from None
    except PermissionError:
        raise FileProblem("permission denied while reading") from None
    except OSError as error:
        raise FileProblem(f"cannot read: {error.strerror or error}") from None
    if b"\0" in data:
        raise FileProblem("binary file (contains NUL bytes); not Python source")
    return data


def write_atomic(path: Path, data: bytes, expected: bytes) -> None:
    """Replace ``path`` with ``data`` if it still holds ``expected``; keep its mode and owner.

    The new bytes go to a temporary file in the same folder first; only then is the file
    read again and compared with ``expected``, right before the rename, so an edit saved
    while the rewrite was computed or written is kept and reported. What is left is the
    time between that last read and the rename (microseconds): an edit landing in it is
    lost, as with any tool that writes by rename. A file with several hard links is
    written in place instead, through its own inode, so every name sees the rewrite (that
    write is not atomic: a crash in the middle of it can leave it cut short).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileProblem("file disappeared before it could be written; left as it is") from None
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise FileProblem("file is read-only; not rewritten")
    target = Path(os.path.realpath(path))
    _check_unchanged(target, expected)  # cheap, and spares a temporary file when it fails
    try:
        if info.st_nlink > 1:
            _write_in_place(target, data, expected)
        else:
            _write_by_rename(target, data, expected, info)
    except OSError as error:
        raise FileProblem(f"cannot write: {error.strerror or error}") from None


def _check_unchanged(target: Path, expected: bytes) -> None:
    try:
        current = target.read_bytes()
    except FileNotFoundError:
        raise FileProblem("file disappeared before it could be written; left as it is") from None
    except OSError as error:
        raise FileProblem(f"cannot re-read before writing: {error.strerror or error}") from None
    if current != expected:
        raise FileProblem("file changed while it was being rewritten; left as it is")


def _write_by_rename(target: Path, data: bytes, expected: bytes, info: os.stat_result) -> None:
    """Write a temporary file with the original's mode and owner, compare, then rename it over."""
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=target.parent)
    renamed = False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            _keep_owner(handle.fileno(), info)
            os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))  # after chown, which may clear bits
            os.fsync(handle.fileno())
        _check_unchanged(target, expected)
        os.replace(temp_name, target)
        renamed = True
    finally:
        if not renamed:  # any failure or interrupt, Ctrl-C included
            with contextlib.suppress(OSError):
                os.unlink(temp_name)


def _keep_owner(fd: int, info: os.stat_result) -> None:
    """Give the new file the original's owner and group, as far as we may.

    Root may give any owner; another user may only keep a group they belong to, and
    otherwise the file becomes theirs, as with any editor that saves by rename.
    """
    made = os.fstat(fd)
    if (made.st_uid, made.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
    except PermissionError:
        with contextlib.suppress(PermissionError):
            os.fchown(fd, -1, info.st_gid)


def _write_in_place(target: Path, data: bytes, expected: bytes) -> None:
    """Rewrite a hard-linked file through its inode (a rename would split its links).

    Interrupted, it puts the original bytes back: half of each is worse than either.
    """
    with open(target, "r+b") as handle:
        if handle.read() != expected:
            raise FileProblem("file changed while it was being rewritten; left as it is")
        try:
            _overwrite(handle, data)
        except BaseException:
            _overwrite(handle, expected)
            raise


def _overwrite(handle: BinaryIO, data: bytes) -> None:
    handle.seek(0)
    handle.write(data)
    handle.truncate()
    handle.flush()
    os.fsync(handle.fileno())
