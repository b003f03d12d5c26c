"""``tf.io.gfile`` and TF1's ``tf.gfile``: TF's file API on the local file system.

Modelled on TF 2.21's ``file_io.py`` over its POSIX file system, so a program sees what it
would under TF: files open lazily (a missing file fails at the first ``read``, a ``"w"`` file is
created at the first ``write``), text mode decodes the bytes binary mode returns, ``readline``
drops ``\\r``, and failed system calls raise ``tf.errors`` classes by TF's errno table with TF's
``"<path>; <strerror>"`` message. Only local paths (and ``file://``) are served.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import posixpath
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from stat import S_ISDIR
from typing import Any, TypeVar

from runtime import errors as E
from runtime.api.binding import as_tf

T = TypeVar("T")

#: TF's ErrnoToCode (tsl/platform/errors.cc); an errno missing here is UnknownError.
_ERRNO_NAMES: dict[type, tuple[str, ...]] = {
    E.InvalidArgumentError: ("EINVAL", "ENAMETOOLONG", "E2BIG", "EDESTADDRREQ", "EDOM", "EFAULT",
                             "EILSEQ", "ENOPROTOOPT", "ENOSTR", "ENOTSOCK", "ENOTTY", "EPROTOTYPE",
                             "ESPIPE"),
    E.DeadlineExceededError: ("ETIMEDOUT", "ETIME"),
    E.NotFoundError: ("ENODEV", "ENOENT", "ENXIO", "ESRCH"),
    E.AlreadyExistsError: ("EEXIST", "EADDRNOTAVAIL", "EALREADY"),
    E.PermissionDeniedError: ("EPERM", "EACCES", "EROFS"),
    E.FailedPreconditionError: ("ENOTEMPTY", "EISDIR", "ENOTDIR", "EADDRINUSE", "EBADF", "EBUSY",
                                "ECHILD", "EISCONN", "ENOTBLK", "ENOTCONN", "EPIPE", "ESHUTDOWN",
                                "ETXTBSY"),
    E.ResourceExhaustedError: ("ENOSPC", "EDQUOT", "EMFILE", "EMLINK", "ENFILE", "ENOBUFS",
                               "ENODATA", "ENOMEM", "ENOSR", "EUSERS"),
    E.OutOfRangeError: ("EFBIG", "EOVERFLOW", "ERANGE"),
    E.UnimplementedError: ("ENOSYS", "ENOTSUP", "EAFNOSUPPORT", "EPFNOSUPPORT", "EPROTONOSUPPORT",
                           "ESOCKTNOSUPPORT", "EXDEV"),
    E.UnavailableError: ("EAGAIN", "ECONNREFUSED", "ECONNABORTED", "ECONNRESET", "EINTR",
                         "EHOSTDOWN", "EHOSTUNREACH", "ENETDOWN", "ENETRESET", "ENETUNREACH",
                         "ENOLCK", "ENOLINK", "ENONET"),
    E.AbortedError: ("EDEADLK", "ESTALE"),
    E.CancelledError: ("ECANCELED",),
}
_BY_ERRNO = {getattr(errno, n): cls for cls, names in _ERRNO_NAMES.items()
             for n in names if hasattr(errno, n)}
#: FileIO's modes without "b": (readable, writable). Writing truncates unless the mode has "a".
_MODES = {"r": (True, False), "w": (False, True), "a": (False, True),
          "r+": (True, True), "w+": (True, True), "a+": (True, True)}
#: Schemes TF 2.21 registers besides the local ones; the engine has no such file systems.
_REMOTE_SCHEMES = frozenset({"gs", "ram"})
_SCHEME = re.compile(r"([a-zA-Z][0-9a-zA-Z.]*)://")
_GLOB_CHARS = "*?[\\"


def _fail(cls: type, message: str) -> E.OpError:
    return cls(None, None, message)


def _io_error(name: str, exc: OSError) -> E.OpError:
    """What TF's IOError(name, errno) makes of a failed system call."""
    code = exc.errno or 0
    return _fail(_BY_ERRNO.get(code, E.UnknownError), f"{name}; {os.strerror(code)}")


def _os(name: str, fn: Callable[..., T], *args: Any) -> T:
    try:
        return fn(*args)
    except OSError as exc:
        raise _io_error(name, exc) from None


def _name(path: Any) -> str:
    """TF's ``compat.path_to_str``: a str, bytes or os.PathLike path, as str."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, bytes):
        return path.decode("utf-8")
    if not isinstance(path, str):
        raise TypeError(f"Expected binary or unicode string, got {path!r}")
    return path


def _local(name: str) -> str:
    """The local path ``name`` names: ``file://`` is stripped, other schemes are not served."""
    found = _SCHEME.match(name)
    if found is None:
        return name
    scheme = found.group(1)
    if scheme == "file":
        rest = name[found.end():]
        return rest[rest.find("/"):] if "/" in rest else "/"
    if scheme in _REMOTE_SCHEMES:
        raise E.Unsupported(f"tf.io.gfile on {scheme}:// paths")
    raise _fail(E.UnimplementedError, f"File system scheme '{scheme}' not implemented (file: '{name}')")


def _as_bytes(value: Any) -> bytes:
    """TF's ``compat.as_bytes``: what ``write`` accepts."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"Expected binary or unicode string, got {value!r}")


class _Reader:
    """TF's BufferedInputStream over a pread file descriptor (a directory opens, then fails to
    read, as under TF); ``readline`` keeps ``\\n`` and drops ``\\r``, and swallows read errors."""

    fd: int | None = None

    def __init__(self, name: str) -> None:
        self.name = name
        self.fd = _os(name, os.open, _local(name), os.O_RDONLY)
        self.pos = 0

    def _pread(self, n: int) -> bytes:
        return _os(self.name, os.pread, self.fd, n, self.pos)

    def read(self, n: int) -> bytes:
        if n < 0:
            raise _fail(E.InvalidArgumentError, f"Can't read a negative number of bytes: {n}")
        parts = []
        while n > 0:
            chunk = self._pread(n)
            if not chunk:
                break
            parts.append(chunk)
            self.pos += len(chunk)
            n -= len(chunk)
        return b"".join(parts)

    def readline(self) -> bytes:
        line = bytearray()
        while True:
            try:
                chunk = self._pread(64 * 1024)
            except E.OpError:
                chunk = b""
            if not chunk:
                break
            end = chunk.find(b"\n")
            taken = chunk if end < 0 else chunk[:end + 1]
            line += taken
            self.pos += len(taken)
            if end >= 0:
                break
        return bytes(line.replace(b"\r", b""))

    def seek(self, offset: int) -> None:
        if offset < 0:
            raise _fail(E.InvalidArgumentError, f"Seeking to a negative position: {offset}")
        size = os.fstat(self.fd).st_size
        self.pos = min(offset, size)
        if offset > size:
            raise _fail(E.OutOfRangeError, "reached end of file")

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    __del__ = close


class FileIO:
    """TF's ``FileIO``: the file is opened for reading at the first read, for writing at the
    first write; ``close`` forgets both, so a later read starts over and a later "w" write
    truncates again, as in TF."""

    def __init__(self, name: Any, mode: str = "r") -> None:
        self._name_arg = name
        self._mode = mode
        self._binary = "b" in mode
        flags = _MODES.get(mode.replace("b", ""))
        if flags is None:
            raise _fail(E.InvalidArgumentError,
                        "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._readable, self._writable = flags
        self._reader: _Reader | None = None
        self._writer: Any = None

    @property
    def name(self) -> Any:
        return self._name_arg

    @property
    def mode(self) -> str:
        return self._mode

    def _read_stream(self) -> _Reader:
        if self._reader is None:
            if not self._readable:
                raise _fail(E.PermissionDeniedError, "File isn't open for reading")
            self._reader = _Reader(_name(self._name_arg))
        return self._reader

    def _write_stream(self) -> Any:
        if self._writer is None:
            if not self._writable:
                raise _fail(E.PermissionDeniedError, "File isn't open for writing")
            name = _name(self._name_arg)
            self._writer = _os(name, open, _local(name), "ab" if "a" in self._mode else "wb")
        return self._writer

    def _value(self, data: bytes) -> bytes | str:
        return data if self._binary else data.decode("utf-8")

    def size(self) -> int:
        return stat(self._name_arg).length

    def write(self, file_content: Any) -> None:
        writer = self._write_stream()
        _os(_name(self._name_arg), writer.write, _as_bytes(file_content))

    def read(self, n: int = -1) -> bytes | str:
        reader = self._read_stream()
        return self._value(reader.read(self.size() - self.tell() if n == -1 else n))

    def seek(self, offset: int | None = None, whence: int = 0, position: int | None = None) -> None:
        reader = self._read_stream()
        if offset is None and position is None:
            raise TypeError("seek(): offset argument required")
        if offset is not None and position is not None:
            raise TypeError("seek(): offset and position may not be set simultaneously.")
        offset = position if position is not None else offset
        base = {0: lambda: 0, 1: self.tell, 2: self.size}.get(whence)
        if base is None:
            raise _fail(E.InvalidArgumentError,
                        f"Invalid whence argument: {whence}. Valid values are 0, 1, or 2.")
        reader.seek(offset + base())

    def readline(self) -> bytes | str:
        return self._value(self._read_stream().readline())

    def readlines(self) -> list:
        return list(iter(self.readline, self._value(b"")))

    def tell(self) -> int:
        if self._readable:
            return self._read_stream().pos
        return self._write_stream().tell()

    def __enter__(self) -> FileIO:  # noqa: PYI034 - TF returns the file itself
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> bytes | str:
        line = self.readline()
        if not line:
            raise StopIteration()
        return line

    next = __next__

    def flush(self) -> None:
        if self._writer is not None:
            _os(_name(self._name_arg), self._writer.flush)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._writer is not None:
            _os(_name(self._name_arg), self._writer.close)
            self._writer = None

    def seekable(self) -> bool:
        return True


class GFile(FileIO):
    """``tf.io.gfile.GFile`` (``tf.gfile.GFile``, ``tf.gfile.Open``)."""

    def __init__(self, name: Any, mode: str = "r") -> None:
        super().__init__(name, mode)


class FastGFile(FileIO):
    """TF1's ``tf.gfile.FastGFile``: the same file class."""

    def __init__(self, name: Any, mode: str = "r") -> None:
        super().__init__(name, mode)


class FileStatistics:
    """What ``stat`` returns: read-only ``length``, ``mtime_nsec`` (whole seconds, as TF's POSIX
    Stat reports ``st_mtime * 1e9``) and ``is_directory``."""

    __slots__ = ("_is_directory", "_length", "_mtime_nsec")

    def __init__(self, *args: Any) -> None:
        raise TypeError(f"{type(self).__module__}.FileStatistics: No constructor defined!")

    @classmethod
    def _of(cls, st: os.stat_result) -> FileStatistics:
        obj = object.__new__(cls)
        obj._length, obj._mtime_nsec = st.st_size, int(st.st_mtime) * 10**9
        obj._is_directory = S_ISDIR(st.st_mode)
        return obj

    length = property(lambda self: self._length)
    mtime_nsec = property(lambda self: self._mtime_nsec)
    is_directory = property(lambda self: self._is_directory)


for _cls, _module in ((FileIO, "tensorflow.python.lib.io.file_io"),
                      (GFile, "tensorflow.python.platform.gfile"),
                      (FastGFile, "tensorflow.python.platform.gfile"),
                      (FileStatistics, "tensorflow.python.lib.io._pywrap_file_io")):
    _cls.__module__ = _module


def exists(path: Any) -> bool:
    return os.access(_local(_name(path)), os.F_OK)


def isdir(path: Any) -> bool:
    try:
        return os.path.isdir(_local(_name(path)))
    except E.OpError:
        return False


def remove(path: Any) -> None:
    name = _name(path)
    _os(name, os.unlink, _local(name))


def mkdir(path: Any) -> None:
    """TF's CreateDir; an existing path (even a file) is no error in TF 2.21's wrapper."""
    name = _name(path)
    try:
        _os(name, os.mkdir, _local(name), 0o755)
    except E.AlreadyExistsError:
        pass
    except E.NotFoundError:
        if _local(name):  # TF treats "" as already there
            raise


def makedirs(path: Any) -> None:
    """TF's RecursivelyCreateDir: climb to the first existing ancestor, then create downwards."""
    name = _name(path)
    remaining, missing = _local(name), []
    while remaining:
        if os.access(remaining, os.F_OK):
            if os.path.isdir(remaining):
                break
            raise _fail(E.FailedPreconditionError, f"{remaining} is not a directory")
        if not remaining.endswith("/"):
            missing.append(posixpath.basename(remaining))
        remaining = posixpath.dirname(remaining)
    for part in reversed(missing):
        remaining = posixpath.join(remaining, part)
        mkdir(remaining)


def copy(src: Any, dst: Any, overwrite: bool = False) -> None:
    """TF's CopyFile: stat and open the source, create the target with its permissions, then
    sendfile (read/write off Linux), so the errors name the same path they do in TF."""
    src_name, dst_name = _name(src), _name(dst)
    if not overwrite and exists(dst_name):
        raise _fail(E.AlreadyExistsError, "file already exists")
    source = _local(src_name)
    st = _os(src_name, os.stat, source)
    fd_in = _os(src_name, os.open, source, os.O_RDONLY)
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        fd_out = _os(dst_name, os.open, _local(dst_name), flags, st.st_mode & 0o777)
        try:
            offset = 0
            while offset < st.st_size:
                sent = _os(dst_name, _send, fd_out, fd_in, offset, st.st_size - offset)
                if sent <= 0:
                    break
                offset += sent
        finally:
            os.close(fd_out)
    finally:
        os.close(fd_in)


def _send(fd_out: int, fd_in: int, offset: int, count: int) -> int:
    if sys.platform.startswith("linux"):
        return os.sendfile(fd_out, fd_in, offset, count)
    return os.write(fd_out, os.pread(fd_in, min(count, 128 * 1024), offset))


def rename(src: Any, dst: Any, overwrite: bool = False) -> None:
    src_name, dst_name = _name(src), _name(dst)
    if not overwrite and exists(dst_name):
        raise _fail(E.AlreadyExistsError, "file already exists")
    _os(src_name, os.rename, _local(src_name), _local(dst_name))


def rmtree(path: Any) -> None:
    """TF's DeleteRecursively: a missing path is NotFound, a file is just deleted."""
    name = _name(path)
    local = _local(name)
    if not os.access(local, os.F_OK):
        raise _fail(E.NotFoundError, f"{name} not found")
    if not os.path.isdir(local):
        return remove(name)
    try:
        shutil.rmtree(local)
    except OSError as exc:
        raise _io_error(str(exc.filename or name), exc) from None


def listdir(path: Any) -> list[str]:
    """Entries in the order the directory lists them (not sorted), without a trailing slash."""
    if not isdir(path):
        raise _fail(E.NotFoundError, f"Could not find directory {path}")
    name = _name(path)
    return _os(name, os.listdir, _local(name))


def join(path: Any, *paths: Any) -> str:
    text = _name(path)
    if "://" in text[1:]:
        return posixpath.join(path, *paths)
    return os.path.join(path, *paths)


def walk(top: Any, topdown: bool = True, onerror: Callable | None = None) -> Iterator[tuple]:
    """TF's walk_v2, as written there: listing order; a directory that cannot be listed ends
    the walk there, or (TF 2.21's own bug, kept) calls ``onerror`` and then fails."""
    top = _name(top)
    try:
        listing = listdir(top)
    except E.NotFoundError as err:
        if onerror:
            onerror(err)
        else:
            return
    subdirs, files = [], []
    for item in listing:  # unbound after onerror, as in TF
        (subdirs if isdir(_child(top, item)) else files).append(item)
    if topdown:
        yield top, subdirs, files
    for subdir in subdirs:
        yield from walk(_child(top, subdir), topdown, onerror=onerror)
    if not topdown:
        yield top, subdirs, files


def _child(parent: str, item: str) -> str:
    return join(parent, "") + item if item[0] == os.sep else join(parent, item)


def stat(path: Any) -> FileStatistics:
    name = _name(path)
    return FileStatistics._of(_os(name, os.stat, _local(name)))


def glob(pattern: Any) -> list[str]:
    """A pattern, or an iterable of patterns whose matches are concatenated."""
    if isinstance(pattern, str):
        return _matching(pattern)
    return [match for single in pattern for match in _matching(_name(single))]


def _matching(pattern: str) -> list[str]:
    """TF's GetMatchingPaths: no wildcard means the path if it exists; otherwise expand level by
    level from the last literal directory (a pattern with no directory is read as ``./pattern``),
    matching whole paths as fnmatch(FNM_PATHNAME) does, hidden names included."""
    local = _local(pattern)
    prefix = pattern[:len(pattern) - len(local)] if _SCHEME.match(pattern) else ""
    wild = [i for i, c in enumerate(local) if c in _GLOB_CHARS]
    if not wild:
        return [pattern] if local and os.access(local, os.F_OK) else []
    fixed = local[:wild[0]]
    patched = local if posixpath.dirname(fixed) else posixpath.join(".", local)
    level = posixpath.dirname(patched) if local.endswith("/") else patched
    dirs = []
    while level:
        dirs.append(level)
        if posixpath.dirname(level) == level:
            break
        level = posixpath.dirname(level)
    dirs.reverse()
    first = next(i for i, d in enumerate(dirs) if any(c in _GLOB_CHARS for c in d))
    results: list[str] = []
    queue = [(dirs[first - 1], first - 1)]
    while queue:
        following = []
        for parent, index in queue:
            index += 1
            matcher = _matcher(dirs[index])
            try:
                children = os.listdir(parent)
            except OSError:
                continue
            for child in children:
                path = posixpath.join(parent, child)
                if not matcher(path):
                    continue
                if index == len(dirs) - 1:
                    results.append(prefix + path)
                elif os.path.isdir(path):
                    following.append((path, index))
        queue = following
    return results


def get_registered_schemes() -> list[str]:
    """TF 2.21's list, in its order; the engine serves only the local ones ("", "file")."""
    return ["ram", "file", "", "gs"]


def _matcher(pattern: str) -> Callable[[str], bool]:
    """POSIX fnmatch's syntax in Python's: ``\\x`` escapes, ``[^...]`` negates."""
    translated = re.sub(r"\\(.)", r"[\1]", pattern).replace("[^", "[!")
    return lambda path: fnmatch.fnmatchcase(path, translated)


V2_TABLE: dict[str, Any] = {
    "GFile": GFile, "copy": copy, "exists": exists, "glob": glob, "isdir": isdir, "join": join,
    "listdir": listdir, "makedirs": makedirs, "mkdir": mkdir, "remove": remove, "rename": rename,
    "rmtree": rmtree, "stat": stat, "walk": walk, "get_registered_schemes": get_registered_schemes,
}


#: TF1's spellings: the same functions, called by TF1's parameter names (``oldpath``...).
_V1_NAMES: dict[str, tuple[Callable, str]] = {
    "Exists": (exists, "filename"), "Remove": (remove, "filename"), "Glob": (glob, "filename"),
    "MkDir": (mkdir, "dirname"), "MakeDirs": (makedirs, "dirname"), "Stat": (stat, "filename"),
    "Copy": (copy, "oldpath, newpath, overwrite="), "Rename": (rename, "oldname, newname, overwrite="),
    "DeleteRecursively": (rmtree, "dirname"), "IsDirectory": (isdir, "dirname"),
    "ListDirectory": (listdir, "dirname"), "Walk": (walk, "top, in_order="),
}
V1_TABLE: dict[str, Any] = {"GFile": GFile, "Open": GFile, "FastGFile": FastGFile} | {
    name: as_tf(fn, text, f"tf.gfile.{name}") for name, (fn, text) in _V1_NAMES.items()}
