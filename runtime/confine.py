"""What keeps a program's effects inside its sandbox, as far as a plain process can.

- Its folder is copied *by value*: a symlink becomes a copy of what it points to, so a
  program that empties ``data/`` where ``data -> /real/folder`` empties only the copy.
  Links that loop back up, dangling links, FIFOs, sockets and devices are left out.
- ``HOME``, the temporary folder and XDG's folders point inside the sandbox.
- Every process it started is ended afterwards: its process group, then any process whose
  working folder lies in the sandbox or whose environment carries the run's mark (on Linux,
  through ``/proc``). A process that left the sandbox folder *and* replaced its
  environment, or one started by another user, is not found.

It is no security boundary: a program can still write to any absolute path its user may,
use the network, or read the user's files. It keeps honest programs from harming the
user's tree by accident.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import site
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

#: Set in a run's environment; inherited by everything it starts, which is how leftovers are found.
RUN_MARK_ENV = "TFMIGRATE_RUN_ID"
#: Variables that name per-user folders, and where each points inside the sandbox.
PRIVATE_FOLDERS = {
    "HOME": "home",
    "XDG_CACHE_HOME": "home/.cache",
    "XDG_CONFIG_HOME": "home/.config",
    "XDG_DATA_HOME": "home/.local/share",
    "XDG_STATE_HOME": "home/.local/state",
    "TMPDIR": "tmp",
    "TMP": "tmp",
    "TEMP": "tmp",
}
#: Processes may fork while they are being ended; look again this many times.
END_ROUNDS = 5

Skip = Callable[[str, list[str]], set[str]]


class TooLarge(Exception):
    """The folder holds more bytes than the copy may take."""


def _entries(root: Path, skip: Skip) -> Iterator[tuple[str, os.stat_result]]:
    """Every folder and regular file under ``root``, links followed: (relative path, stat).

    A folder comes before what it holds. A link to a folder that holds it would copy
    forever, so the folders on the way down are remembered by device and inode.
    """
    top = os.stat(root)
    stack = [("", frozenset({(top.st_dev, top.st_ino)}))]
    while stack:
        relative, above = stack.pop()
        folder = os.path.join(root, relative)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        skipped = skip(folder, names)
        for name in names:
            if name in skipped:
                continue
            path, inner = os.path.join(folder, name), os.path.join(relative, name)
            try:
                info = os.stat(path)
            except OSError:
                continue  # a dangling link or a link loop
            if stat.S_ISDIR(info.st_mode):
                if (info.st_dev, info.st_ino) in above:
                    continue
                yield inner, info
                stack.append((inner, above | {(info.st_dev, info.st_ino)}))
            elif stat.S_ISREG(info.st_mode):
                yield inner, info
            # FIFOs, sockets and devices: reading one may block or never end


def copy_by_value(source: Path, dest: Path, *, limit_bytes: int, skip: Skip) -> None:
    """Copy ``source`` to ``dest`` with every symlink replaced by a copy of its target.

    Raises :class:`TooLarge` (before copying anything) past ``limit_bytes``. A file that
    cannot be read is left out, as the program could not have read it either.
    """
    entries, total = [], 0
    for relative, info in _entries(source, skip):
        entries.append((relative, info))
        total += info.st_size if stat.S_ISREG(info.st_mode) else 0
        if total > limit_bytes:
            raise TooLarge(total)
    dest.mkdir(parents=True)
    for relative, info in entries:
        if stat.S_ISDIR(info.st_mode):
            (dest / relative).mkdir()
            continue
        try:
            shutil.copy2(source / relative, dest / relative)
        except OSError:
            pass


def private_environment(sandbox: Path) -> dict[str, str]:
    """The variables that point a run's home and temporary folders inside ``sandbox``.

    User-installed packages stay importable: their folder is named explicitly, since
    Python would otherwise look for it under the new ``HOME``.
    """
    env = {"PYTHONUSERBASE": os.environ.get("PYTHONUSERBASE") or site.getuserbase()}
    for variable, folder in PRIVATE_FOLDERS.items():
        path = sandbox / folder
        path.mkdir(parents=True, exist_ok=True)
        env[variable] = str(path)
    return env


def memory_limit(megabytes: int | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` that caps the child's address space (None: no cap)."""
    if megabytes is None:
        return None
    limit = megabytes * 1024 * 1024

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def end_processes(group: int, run_mark: str, folder: Path | None = None) -> None:
    """Kill the process group ``group``, then every process marked ``run_mark`` or working in ``folder``.

    The second search catches children that left the group (``setsid``, a double fork).
    """
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for _ in range(END_ROUNDS):
        left = list(_marked_processes(run_mark, folder))
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _marked_processes(run_mark: str, folder: Path | None) -> Iterator[int]:
    """Processes of this user whose environment holds the mark or whose cwd is in ``folder``."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    mark = f"{RUN_MARK_ENV}={run_mark}".encode()
    inside = os.path.realpath(folder) if folder is not None else None
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if _is_zombie(entry):
                continue
            if mark in (entry / "environ").read_bytes().split(b"\0"):
                yield int(entry.name)
                continue
            cwd = os.readlink(entry / "cwd") if inside else ""
        except OSError:
            continue  # gone, or not ours to read
        if inside and (cwd == inside or cwd.startswith(inside + os.sep)):
            yield int(entry.name)


def _is_zombie(entry: Path) -> bool:
    return (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
