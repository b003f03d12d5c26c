"""A content-hash cache of rewrite results.

Keyed by the file's kind and bytes plus a salt made of the rewriter's own code (its
fingerprint: an upgrade, or a checkout between releases, changes it) and the rewrite
configuration, so an unchanged tree re-runs almost free and any change to the tool or
the settings starts afresh. A stored rewrite passed the safety checks (it parses, a
second run changes nothing) when it was stored; since the cache folder is only a folder
of files anyone can edit, an entry is checked again when read: it must carry the hash
stored with it, and its code must still parse. An entry that fails is a miss.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from migrate import notebooks
from migrate.api import Finding


def tool_fingerprint() -> str:
    """A hash of the rewriter's source files: what decides every cached result."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class Entry:
    level: str
    findings: list[Finding]
    #: The rewritten bytes, or None when the rewrite changed nothing.
    code: bytes | None = None


def file_kind(name: str) -> str:
    """What the rewriter makes of a file: the same bytes rewrite differently as a notebook."""
    return "notebook" if name.endswith(".ipynb") else "python"


def _parses(code: bytes, kind: str) -> bool:
    """Whether cached code is still what the rewriter could have written: code that parses."""
    try:
        ast.parse(notebooks.to_script(code)[0] if kind == "notebook" else code)
    except (SyntaxError, ValueError, notebooks.NotebookError, RecursionError):
        return False
    return True


class Cache:
    """One small JSON file per cached source, named by its hash, under ``folder``."""

    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder
        self.salt = salt.encode("utf-8")

    def _key(self, source: bytes, kind: str) -> str:
        return hashlib.sha256(self.salt + b"\0" + kind.encode("ascii") + b"\0" + source).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key[2:]}.json"

    @staticmethod
    def _check(key: str, body: str) -> str:
        """The hash an entry carries: of its key and its body, so it fits only its own source."""
        return hashlib.sha256(f"{key}\0{body}".encode()).hexdigest()

    def get(self, source: bytes, kind: str) -> Entry | None:
        """The stored entry for ``source`` read as ``kind``; None when missing or not sound."""
        key = self._key(source, kind)
        try:
            stored = json.loads(self._path(key).read_text(encoding="utf-8"))
            body = stored["entry"]
            if stored["check"] != self._check(key, body):
                return None
            data = json.loads(body)
            code = None if data["code"] is None else base64.b64decode(data["code"], validate=True)
            entry = Entry(data["level"], [Finding(**f) for f in data["findings"]], code)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if code is not None and not _parses(code, kind):
            return None
        return entry

    def put(self, source: bytes, kind: str, entry: Entry) -> None:
        """Store atomically; a cache that cannot be written is simply not used."""
        key = self._key(source, kind)
        path = self._path(key)
        code = None if entry.code is None else base64.b64encode(entry.code).decode("ascii")
        body = json.dumps(
            {"level": entry.level, "findings": [asdict(f) for f in entry.findings], "code": code}
        )
        payload = json.dumps({"entry": body, "check": self._check(key, body)})
        try:
            if not self.folder.is_dir():
                self.folder.mkdir(parents=True)
                (self.folder / ".gitignore").write_text("# created by tfmigrate\n*\n")
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(temp, path)
        except BaseException as error:  # a full disk, or Ctrl-C: leave no temporary file
            with contextlib.suppress(OSError):
                os.unlink(temp)
            if not isinstance(error, OSError):
                raise
