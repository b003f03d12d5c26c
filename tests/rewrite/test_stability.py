"""A rewrite whose output the rewriter would change again is refused, never written."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate import process
from migrate.api import RewriteConfig, RewriteResult


def _drifting(source: bytes | str, **_: object) -> RewriteResult:
    """A rewriter that changes its own output again: adds a line every time."""
    code = source + (b"x = 1\n" if isinstance(source, bytes) else "x = 1\n")
    return RewriteResult(code, True, "idiomatic", [])


def test_unstable_rewrite_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(process, "rewrite_source", _drifting)
    with pytest.raises(process.UnsafeRewrite):
        process.rewrite_bytes(b"import tensorflow as tf\n", "a.py", RewriteConfig())
    path = tmp_path / "a.py"
    path.write_bytes(b"import tensorflow as tf\n")
    result = process.process_file(path, process.Job())
    assert result.status == process.FAILED and "not stable" in (result.error or "")
    assert path.read_bytes() == b"import tensorflow as tf\n"


def test_stable_rewrite_passes_the_second_run() -> None:
    source = b"import tensorflow as tf\ny = tf.log(2.0)\n"
    result = process.rewrite_bytes(source, "a.py", RewriteConfig())
    assert result.changed and b"tf.math.log" in result.code  # type: ignore[operator]


@pytest.mark.parametrize("initializer", ["random_normal_initializer", "random_uniform_initializer"])
def test_initializers_in_the_form_a_rewrite_writes_need_no_second_parse(
    monkeypatch: pytest.MonkeyPatch, initializer: str
) -> None:
    """A rewrite spells these initializers in TF2's keyword form: the stability re-run of its
    output sees no TF1 left from the `ast` scan alone, while TF1's spelling is still rewritten."""
    from migrate import api

    source = f"import tensorflow as tf\ninit = tf.{initializer}(0.0, 0.1, dtype=tf.float32)\n"
    first = api.rewrite_source(source)
    assert first.changed and "dtype" not in first.code
    parses: list[str] = []
    real_parse = api._parse
    monkeypatch.setattr(api, "_parse", lambda *a, **k: parses.append("parse") or real_parse(*a, **k))
    again = api.rewrite_source(first.code)
    assert not again.changed and parses == []
    api.rewrite_source(source)
    assert parses == ["parse"]
