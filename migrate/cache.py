"""A content-hash cache of rewrite results.

Keyed by the file's bytes plus a salt made of the rewriter's own code (its
fingerprint: an upgrade, or a checkout between releases, changes it) and the
rewrite configuration, so an unchanged tree re-runs almost free and any change
to the tool or the settings starts afresh. A stored rewrite already passed the safety
checks (it parses, a second run changes nothing) when it was stored.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

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


class Cache:
    """One small JSON file per cached source, named by its hash, under ``folder``."""

    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = folder
        self.salt = salt.encode("utf-8")

    def _path(self, source: bytes) -> Path:
        digest = hashlib.sha256(self.salt + b"\0" + source).hexdigest()
        return self.folder / digest[:2] / f"{digest[2:]}.json"

    def get(self, source: bytes) -> Entry | None:
        try:
            data = json.loads(self._path(source).read_text(encoding="utf-8"))
            code = None if data["code"] is None else base64.b64decode(data["code"])
            return Entry(data["level"], [Finding(**f) for f in data["findings"]], code)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, source: bytes, entry: Entry) -> None:
        """Store atomically; a cache that cannot be written is simply not used."""
        path = self._path(source)
        code = None if entry.code is None else base64.b64encode(entry.code).decode("ascii")
        payload = json.dumps(
            {"level": entry.level, "findings": [asdict(f) for f in entry.findings], "code": code}
        )
        try:
            if not self.folder.is_dir():
                self.folder.mkdir(parents=True)
                (self.folder / ".gitignore").write_text("# created by tfmigrate\n*\n")
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(temp, path)
        except OSError:
            pass
