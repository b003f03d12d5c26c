"""The generated API table, held to a real TF 2.21: it is what TensorFlow says, and every entry
rewrites to names TF 2.21 has and calls that bind to its signatures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from migrate import api_data
from migrate.api import rewrite_source

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tests" / "api_check.py"
RECORDER = ROOT / "tests" / "record_api_table.py"
HEADER = "import tensorflow.compat.v1 as tf\n"  # a TF1 file: TF1's meanings apply


def _python() -> str:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    return python


def _env() -> dict[str, str]:
    return {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0"}


def _calls(name: str) -> list[str]:
    """TF1 calls of ``name``: its required parameters in TF1's order, and every parameter by
    keyword (those two TF2 names would merge left out)."""
    change = api_data.signature_change(name)
    if change is None:
        return []
    v1, renames = change.v1, api_data.keyword_renames(name)
    last = max((i for i, p in enumerate(v1.positional) if p in v1.required), default=-1)
    calls = [f"tf.{name}({', '.join(f'a_{p}' for p in v1.positional[:last + 1])})"]
    taken: set[str] = set()
    keywords = []
    for p in sorted(v1.names, key=lambda p: (p not in v1.required, p)):
        new = renames.get(p, p)
        if new in taken:
            continue
        taken.add(new or p)
        keywords.append(f"{p}=a_{p}")
    calls.append(f"tf.{name}({', '.join(keywords)})")
    return calls


def _cases() -> list[tuple[str, str]]:
    names = [f"x = tf.{old}\n" for old in api_data.renames()]
    calls = [f"y = {call}\n" for name in sorted(api_data._data()["signatures"]) for call in _calls(name)]
    return [(body, HEADER + body) for body in names + calls]


@pytest.mark.tf
def test_the_committed_table_is_what_tensorflow_says() -> None:
    out = subprocess.run([_python(), str(RECORDER), "--stdout"], capture_output=True, text=True, env=_env(),
                         check=True, cwd=ROOT).stdout
    assert out == (ROOT / "migrate" / "api_data.json").read_text(encoding="utf-8"), (
        f"regenerate: $TFMIGRATE_TF_PYTHON {RECORDER.relative_to(ROOT)}")


@pytest.mark.tf
def test_every_entry_rewrites_to_names_and_calls_tf221_takes(tmp_path: Path) -> None:
    cases = _cases()
    results = [rewrite_source(source) for _, source in cases]
    sources = tmp_path / "sources.json"
    checks = tmp_path / "checks.json"
    # Each input as TF1's own functions take it (TF 2.21 keeps them under compat.v1): an entry
    # must rewrite a call TF1 took into one TF2 takes.
    tf1_forms = ["import tensorflow as tf\n" + body.replace("tf.", "tf.compat.v1.") for body, _ in cases]
    sources.write_text(json.dumps([r.code for r in results] + tf1_forms), encoding="utf-8")
    subprocess.run([_python(), str(CHECKER), str(sources), str(checks)], env=_env(), check=True,
                   stdout=subprocess.DEVNULL, stderr=sys.stderr)
    verdicts = json.loads(checks.read_text(encoding="utf-8"))
    verdicts, tf1_verdicts = verdicts[:len(cases)], verdicts[len(cases):]
    silent = [
        (body.strip(), r.code.split("\n", 1)[1].strip(), v["problems"])
        for (body, _), r, v, tf1 in zip(cases, results, verdicts, tf1_verdicts)
        if v["problems"] and not tf1["problems"] and not any(f.kind == "manual" for f in r.findings)
    ]
    assert silent == []
    assert sum(1 for v in verdicts if not v["problems"]) > len(cases) * 3 // 4  # the check has teeth
