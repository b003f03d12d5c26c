"""The half of ``upgrade_parity.py`` that runs under a real TensorFlow 2.21 (the referee).

    PYTHON parity_referee.py cases TEST_FILE CASES.json
    PYTHON parity_referee.py check SOURCES.json CHECKS.json

``cases`` runs the test methods of TensorFlow's ``tf_upgrade_v2_test.py`` with an ``_upgrade``
that records each input it is given (and answers with the real ``tf_upgrade_v2``'s output, so
the methods go on as they would), then upgrades every distinct input, put after the header
``upgrade_parity`` gives it, with ``tf_upgrade_v2`` itself: that output is the reference.

``check`` takes a JSON list of sources and checks each with ``tests/api_check.py``: imports,
names and call bindings on this TensorFlow, and which parameter each argument binds to.

Both modes run in one process each: TensorFlow is imported once for all cases.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import sys
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import api_check

# Methods that walk TensorFlow's API instead of upgrading written inputs.
API_WALKS = {
    "testAllAPI", "testAllAPIV1", "testV1KeywordArgNames", "testV2KeywordArgNames",
    "testPositionsMatchArgGiven", "testReorderFileNeedsUpdate",
}


class _Errors(list):
    """The upgrader's error list, read by index in the tests: a missing entry reads as ''."""

    def __getitem__(self, index):  # type: ignore[override]
        try:
            return super().__getitem__(index)
        except IndexError:
            return ""


class _Six:
    StringIO = io.StringIO

    @staticmethod
    def ensure_str(text: Any) -> str:
        return text if isinstance(text, str) else text.decode()


def upgrade(text: str, import_rename: bool = False, compat_import: bool = False) -> tuple[int, str, list, str]:
    from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2

    out = io.StringIO()
    upgrader = ast_edits.ASTCodeUpgrader(
        tf_upgrade_v2.TFAPIChangeSpec(import_rename, upgrade_compat_v1_import=compat_import))
    count, report, errors = upgrader.process_opened_file("test.py", io.StringIO(text), "out.py", out)
    return count, report, _Errors(errors), out.getvalue()


class _Recorder:
    """Stands in for the test case: records inputs, accepts every assertion."""

    def __init__(self, method: str, seen: list[dict]) -> None:
        self.method = method
        self.seen = seen

    def _upgrade(self, text: str, import_rename: bool = False, upgrade_compat_v1_import: bool = False):
        self.seen.append({"method": self.method, "input": text,
                          "option": bool(import_rename or upgrade_compat_v1_import)})
        return upgrade(text, import_rename, upgrade_compat_v1_import)

    def _upgrade_multiple(self, texts: list[str]) -> list[list]:
        return [list(self._upgrade(t)) for t in texts]

    def __getattr__(self, name: str):
        if name.startswith("assert") or name == "fail":
            return lambda *args, **kwargs: None
        raise AttributeError(name)


def _parameters(func: ast.FunctionDef) -> list[tuple] | None:
    """The argument sets of ``@parameterized.parameters(...)``, or None when undecorated."""
    for deco in func.decorator_list:
        if isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("parameters"):
            return [tuple(ast.literal_eval(arg)) for arg in deco.args]
    return None


def cases(test_file: str) -> list[dict]:
    with open(test_file, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    test_case = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TestUpgrade")
    methods = [n for n in test_case.body if isinstance(n, ast.FunctionDef)]
    helpers = {n.name for n in methods
               if not n.name.removeprefix("DISABLED_").startswith("test") and not n.name.startswith(("_", "setUp"))}
    seen: list[dict] = []
    for func in methods:
        name = func.name
        if not name.removeprefix("DISABLED_").startswith("test") or name in API_WALKS:
            continue
        params = _parameters(func)
        bare = ast.Module(body=[func.__class__(**{**func.__dict__, "decorator_list": []})], type_ignores=[])
        namespace: dict[str, Any] = {"six": _Six}
        exec(compile(ast.fix_missing_locations(bare), test_file, "exec"), namespace)  # noqa: S102 - the test's own method
        recorder = _Recorder(name, seen)
        for helper in helpers:  # verify_compat_v1_rename_correctness and the like
            helper_def = next(n for n in methods if n.name == helper)
            helper_ns: dict[str, Any] = {"six": _Six}
            exec(compile(ast.Module(body=[helper_def], type_ignores=[]), test_file, "exec"), helper_ns)  # noqa: S102
            setattr(recorder, helper, helper_ns[helper].__get__(recorder))
        for args in params if params is not None else [()]:
            try:
                namespace[name](recorder, *args)
            except Exception as exc:  # noqa: BLE001 - a method reading what the recorder lacks
                print(f"{name}: stopped early: {exc!r}", file=sys.stderr)
    return seen


def header(text: str) -> str:
    """``import tensorflow as tf``, and the imports that bind the contrib aliases the input
    uses (``slim``, ``contrib_layers``): tf_upgrade_v2 knows them by name, tfmigrate by import."""
    lines = ["import tensorflow as tf"]
    if re.search(r"\bslim\.", text):
        lines.append("import tensorflow.contrib.slim as slim")
    for module in sorted(set(re.findall(r"\bcontrib_(\w+)\.", text))):
        lines.append(f"from tensorflow.contrib import {module} as contrib_{module}")
    return "\n".join(lines) + "\n"


def reference(seen: list[dict]) -> list[dict]:
    """Each distinct input once (those the tests pass with an import-rename option, which
    tfmigrate has no counterpart for, left out), after its header, with tf_upgrade_v2's output."""
    items: dict[str, dict] = {}
    for item in seen:
        if not item["option"] and item["input"] not in items:
            items[item["input"]] = item
    for item in items.values():
        item["source"] = header(item["input"]) + item["input"]
        _, _, errors, output = upgrade(item["source"])
        item["tf_upgrade_v2"] = {"output": output, "errors": list(errors)}
    return list(items.values())


def main() -> None:
    mode = sys.argv[1]
    # JSON goes to files: TensorFlow and tf_upgrade_v2 print to stdout.
    if mode == "cases":
        result = reference(cases(sys.argv[2]))
    elif mode == "check":
        with open(sys.argv[2], encoding="utf-8") as fh:
            result = api_check.check_all(json.load(fh))
    else:
        raise SystemExit(f"unknown mode {mode}")
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        json.dump(result, out)


if __name__ == "__main__":
    main()
