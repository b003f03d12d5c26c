"""Write ``migrate/api_data.json``, the generated half of the TF1 → TF2 API table, from REAL TensorFlow.

Usage (from the repository root, with the referee interpreter):
``$TFMIGRATE_TF_PYTHON tests/record_api_table.py`` writes the file; ``--stdout`` prints it instead.

Two sources of facts, neither kept by hand:

- TensorFlow's own upgrade spec (``tf_upgrade_v2.TFAPIChangeSpec``): symbol renames (contrib
  moves included), keyword renames and removed keywords, and the functions whose positional
  order changed.
- TF 2.21 itself: its namespace as recorded in ``runtime/api/tf221_api.json`` (every module's
  public names), and the signatures of both forms of every renamed or re-argued function
  (``tf.compat.v1.<old>`` is TF1's function, ``tf.<new>`` TF2's).

Every entry is checked as it is written: a rename's target exists in TF 2.21 (renames whose
target does not are left out: their names get no TF 2.21 spelling), and a call converted by
its signatures binds to the TF2 signature (``tests/rewrite/test_api_data_on_tf.py`` checks that
again, on the rewriter's actual output).
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "migrate" / "api_data.json"
MANIFEST = ROOT / "runtime" / "api" / "tf221_api.json"
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def namespace() -> tuple[dict[str, list[str]], dict[str, str]]:
    """Module path (``""`` for ``tf``, ``nn``, ``compat.v1.nn``) -> public names; and aliases."""
    modules: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    for row in MANIFEST.read_text(encoding="utf-8").split("\n"):
        if not row.startswith('"'):
            continue
        key, _, rest = row.partition(": ")
        path = json.loads(key).removeprefix("tf").removeprefix(".")
        entry = json.loads(rest.rstrip(","))
        if "same_as" in entry:
            aliases[path] = entry["same_as"].removeprefix("tf").removeprefix(".")
        else:
            modules[path] = sorted(entry["names"])
    return modules, aliases


def resolve(tf: object, path: str) -> object | None:
    obj = tf
    for part in filter(None, path.split(".")):
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - lazy modules raise anything for a missing name
            return None
    return obj


def parameters(obj: object) -> dict | None:
    """A callable's parameters: positional order, every name, defaults (as source), **kwargs."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    defaults = {}
    for p in params:
        if p.default is not p.empty:
            try:
                defaults[p.name] = repr(p.default) if ast.literal_eval(repr(p.default)) == p.default else None
            except Exception:  # noqa: BLE001 - a default with no literal form
                defaults[p.name] = None
    return {
        "positional": [p.name for p in params if p.kind in _POSITIONAL],
        "names": [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)],
        "var_keyword": any(p.kind is p.VAR_KEYWORD for p in params),
        "var_positional": any(p.kind is p.VAR_POSITIONAL for p in params),
        "required": [p.name for p in params if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)],
        "defaults": {k: v for k, v in defaults.items() if v is not None},
    }


def strip(name: str) -> str:
    return name.removeprefix("tf.").removeprefix("compat.v2.")


def build() -> dict:
    import tensorflow as tf
    from tensorflow.tools.compatibility import tf_upgrade_v2

    spec = tf_upgrade_v2.TFAPIChangeSpec()
    renames: dict[str, str] = {}
    compat_renames: dict[str, str] = {}
    transformed = {strip(n) for n in spec.function_transformers}
    for old, new in sorted(spec.symbol_renames.items()):
        if not old.startswith("tf."):
            continue  # `contrib_layers.x`: tf_upgrade_v2's textual aliases; imports resolve those here
        if strip(old) in transformed and old not in spec.function_reorders:
            continue  # its arguments change by code of tf_upgrade_v2's, not by a table
        old, new = strip(old), strip(new)
        if resolve(tf, new) is None or old == new or resolve(tf, old) is not None:
            continue  # no target; or TF 2.21 has the old name itself, and means TF2's by it
        if not new.startswith("compat.v1."):
            renames[old] = new
        elif new != f"compat.v1.{old}":  # TF1-only names stay as they are, spelled compat.v1
            compat_renames[old] = new.removeprefix("compat.v1.")
    keywords = {
        strip(name): {old: new for old, new in sorted(table.items())}
        for name, table in sorted(spec.function_keyword_renames.items()) if not name.startswith("*")
    }
    reordered = {strip(n) for n in spec.function_reorders if not n.startswith("*")}
    # Every other function the spec names whose two signatures differ: its TF1-only keywords
    # are what tells a TF1 call of it, and what a rewrite must not leave.
    named = {strip(n) for table in (spec.function_transformers, spec.function_warnings, spec.function_arg_warnings)
             for n in table if n.startswith("tf.")}
    # Names TF 2.21 has, which the spec still sends to compat.v1: TF2 means something else by them.
    named |= {strip(old) for old, new in spec.symbol_renames.items()
              if old.startswith("tf.") and strip(new) == f"compat.v1.{strip(old)}" and resolve(tf, strip(old)) is not None}
    signatures: dict[str, dict] = {}
    for name in sorted(reordered | keywords.keys() | renames.keys() | named):
        old = resolve(tf, f"compat.v1.{name}")
        new = resolve(tf, renames.get(name, name))
        if new is None or not callable(new):
            continue
        if old is None and name in reordered:  # gone from TF 2.21 (contrib): the spec's TF1 order
            order = [p for p in spec.function_reorders[f"tf.{name}"] if p]
            v1 = {"positional": order, "names": sorted({*order, *keywords.get(name, {})}), "required": [],
                  "defaults": {}, "var_keyword": False, "var_positional": False}
        elif old is None or not callable(old):
            continue
        else:
            v1 = parameters(old)
        v2 = parameters(new)
        if v1 is None or v2 is None:
            continue
        renamed = [keywords.get(name, {}).get(p, p) for p in v1["positional"]]
        if renamed == v2["positional"][:len(renamed)] and set(v1["names"]) <= set(v2["names"]) and name not in reordered:
            continue  # a call of the old form binds to the new one as it is
        if v2["var_keyword"] or v2["var_positional"]:
            continue  # `(*args, **kwargs)`: nothing to check a binding against
        signatures[name] = {"v1": v1, "v2": v2}
    modules, aliases = namespace()
    return {
        "about": "Generated by tests/record_api_table.py from TensorFlow 2.21 and tf_upgrade_v2; do not edit.",
        "renames": renames,
        "compat_renames": compat_renames,
        "keywords": {k: v for k, v in keywords.items() if k in signatures or k in renames},
        "signatures": signatures,
        "modules": modules,
        "module_aliases": aliases,
    }


def dump(data: dict) -> str:
    """One entry per line, so a regeneration's diff reads entry by entry."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if isinstance(value, dict):
            lines.append(f"{json.dumps(key)}: {{")
            rows = list(value.items())
            for j, (k, v) in enumerate(rows):
                lines.append(f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}{',' if j + 1 < len(rows) else ''}")
            lines.append("}" + comma)
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    text = dump(build())
    if "--stdout" in sys.argv:
        sys.stdout.write(text)
    else:
        OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
