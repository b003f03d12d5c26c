"""The committed TF 2.21 API manifest against real TensorFlow, and the facade against it (tf tier)."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from runtime.api import build, manifest
from runtime.api.binding import as_tf
from runtime.api.tables import binds_constructor
from runtime.errors import Unsupported
from tests.tf_runner import run

ROOT = Path(__file__).resolve().parents[2]
RECORDER = ROOT / "tests" / "record_tf_api.py"


@pytest.fixture(scope="module")
def recorded(real_tf: str) -> dict[str, dict]:
    """TF 2.21's API recorded afresh from the referee interpreter."""
    proc = run([real_tf, str(RECORDER), "--stdout"], cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.tf
def test_the_committed_manifest_is_what_tf_221_has(recorded: dict[str, dict]) -> None:
    committed = json.loads(Path(manifest.PATH).read_text(encoding="utf-8"))

    def api(entry: dict | None) -> dict | None:
        # A module's __name__ depends on how it was first imported (``tensorflow.compat`` or
        # ``tensorflow._api.v2.compat``); it only words an AttributeError, so it is not compared.
        return None if entry is None else {k: v for k, v in entry.items() if k != "module"}

    differ = sorted(path for path in set(recorded) | set(committed)
                    if api(recorded.get(path)) != api(committed.get(path)))
    assert not differ, f"regenerate with: $TFMIGRATE_TF_PYTHON {RECORDER.relative_to(ROOT)} ({differ[:10]})"


def sample_calls(sig: inspect.Signature) -> list[tuple[tuple, dict]]:
    """Calls TF's signature binds: required arguments only, every positional one positionally, and
    the required ones positionally with every optional one by keyword."""
    params = list(sig.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required_pos = tuple(f"<{p.name}>" for p in positional if p.default is p.empty)
    required_kw = {p.name: f"<{p.name}>" for p in params if p.kind is p.KEYWORD_ONLY and p.default is p.empty}
    optional_kw = {p.name: f"<{p.name}>" for p in params
                   if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty}
    calls = [(required_pos, required_kw), (tuple(f"<{p.name}>" for p in positional), required_kw),
             (required_pos, required_kw | optional_kw)]
    return [(args, kwargs) for args, kwargs in calls if _binds(sig, args, kwargs)]


def _binds(sig: inspect.Signature, args: tuple, kwargs: dict) -> bool:
    try:
        sig.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def facade_functions():
    """Every function (and class bound by TF's signature) a checked facade module hands out, in
    both faces: (path, engine object)."""
    seen = set()
    for face in ("tf2", "tf1"):
        for mod in build(face).values():
            real = mod.__dict__.get("_real_path")
            if not real or not mod.__dict__.get("_checked") or manifest.module(real) is None:
                continue
            for name, value in mod.__dict__["_served"].items():
                bound = inspect.isfunction(value) or (isinstance(value, type) and binds_constructor(value))
                if bound and (real, name) not in seen:
                    seen.add((real, name))
                    yield f"{real}.{name}", value


@pytest.mark.tf
def test_the_facade_binds_what_tf_221_binds(recorded: dict[str, dict]) -> None:
    """Each engine function, behind its facade wrapper, takes every sample call TF's real
    signature takes (or says Unsupported for a parameter it lacks), and rejects a call with one
    argument too many or an unknown keyword as TF does."""
    failures = []
    for path, fn in facade_functions():
        module_path, _, name = path.rpartition(".")
        entry = recorded.get(module_path, {})
        while "same_as" in entry:
            entry = recorded[entry["same_as"]]
        text = entry.get("signatures", {}).get(name)
        if text is None or name not in entry.get("names", ()):
            continue
        own = inspect.signature(fn)

        def stub(*args, own=own, **kwargs):
            own.bind(*args, **kwargs)  # the engine function would take this call
            return "ran"

        stub.__signature__ = own
        facade = as_tf(stub, text, path)
        tf_sig = manifest.parse_signature(text)
        for args, kwargs in sample_calls(tf_sig):
            try:
                facade(*args, **kwargs)
            except Unsupported:
                pass
            except TypeError as exc:
                failures.append(f"{path}{args, kwargs}: {exc}")
        for args, kwargs in ((("<a>",) * 40, {}), ((), {"no_such_argument": 1})):
            if not _binds(tf_sig, args, kwargs):
                with pytest.raises(TypeError):
                    facade(*args, **kwargs)
    assert not failures, failures[:20]
