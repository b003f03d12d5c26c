"""The half of ``upgrade_parity.py`` that runs under a real TensorFlow 2.21 (the referee).

    PYTHON parity_referee.py cases TEST_FILE CASES.json
    PYTHON parity_referee.py check SOURCES.json CHECKS.json

``cases`` runs the test methods of TensorFlow's ``tf_upgrade_v2_test.py`` with an ``_upgrade``
that records each input it is given (and answers with the real ``tf_upgrade_v2``'s output, so
the methods go on as they would), then upgrades every distinct input, put after the header
``upgrade_parity`` gives it, with ``tf_upgrade_v2`` itself: that output is the reference.

``check`` takes a JSON list of sources and, for each, says whether it runs as far as names go
on this TensorFlow: every import of a ``tensorflow`` module succeeds, every attribute chain
rooted at a TensorFlow alias resolves, and every call of a resolved function binds to its
signature (``inspect.signature(f).bind`` with a placeholder for each argument). It also
returns, per call, which parameter each argument binds to, for the meaning comparison.

Both modes run in one process each: TensorFlow is imported once for all cases.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import json
import os
import re
import sys
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

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


# ---- check -------------------------------------------------------------------------------


class _Placeholder:
    """A value for binding: any argument."""


def _chain(node: ast.expr) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _qualname(obj: Any) -> str:
    inner = inspect.unwrap(obj) if callable(obj) else obj
    module = getattr(inner, "__module__", "") or ""
    return f"{module}.{getattr(inner, '__qualname__', getattr(inner, '__name__', repr(inner)))}"


class Checker:
    def __init__(self) -> None:
        import tensorflow as tf

        self.tf = tf

    def check(self, source: str) -> dict:
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            return {"problems": [f"does not parse: {exc}"], "calls": []}
        env: dict[str, Any] = {}
        problems: list[str] = []
        calls: list[dict] = []
        resolved: dict[int, Any] = {}
        for node in ast.walk(tree):
            self._imports(node, env, problems)
        inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                obj = self._resolve(node.value, env, problems)
                if obj is not None:
                    env[node.targets[0].id] = obj
        for node in ast.walk(tree):
            if isinstance(node, (ast.Attribute, ast.Name)) and id(node) not in inner:
                obj = self._resolve(node, env, problems)
                if obj is not None:
                    resolved[id(node)] = obj
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and id(node.func) in resolved:
                calls.append(self._bind(node, resolved[id(node.func)], problems))
        return {"problems": sorted(set(problems)), "calls": [c for c in calls if c]}

    def _imports(self, node: ast.AST, env: dict[str, Any], problems: list[str]) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "tensorflow":
                    continue
                try:
                    module = importlib.import_module(alias.name)
                except ImportError:
                    problems.append(f"import {alias.name} fails")
                    continue
                if alias.asname:
                    env[alias.asname] = module
                else:
                    env["tensorflow"] = self.tf
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "tensorflow":
            for alias in node.names:
                try:
                    parent = importlib.import_module(node.module)
                    obj = getattr(parent, alias.name) if hasattr(parent, alias.name) else \
                        importlib.import_module(f"{node.module}.{alias.name}")
                except (ImportError, AttributeError):
                    problems.append(f"from {node.module} import {alias.name} fails")
                    continue
                env[alias.asname or alias.name] = obj

    def _resolve(self, node: ast.expr, env: dict[str, Any], problems: list[str]) -> Any:
        parts = _chain(node)
        if parts is None or parts[0] not in env:
            return None
        obj = env[parts[0]]
        for i, part in enumerate(parts[1:], 1):
            try:
                obj = getattr(obj, part)
            except Exception:  # noqa: BLE001 - a lazy module may raise anything on a missing name
                problems.append(f"{'.'.join(parts[:i + 1])} does not exist")
                return None
        return obj

    def _bind(self, call: ast.Call, func: Any, problems: list[str]) -> dict | None:
        text = ast.unparse(call.func)
        try:
            signature = inspect.signature(func)
        except (TypeError, ValueError):
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        keywords = [k.arg for k in call.keywords]
        positional = [_Placeholder() for _ in call.args]
        named = {k: _Placeholder() for k in keywords}
        try:
            bound = signature.bind(*positional, **named)
        except TypeError as exc:
            problems.append(f"{text}(...) does not bind: {exc}")
            return None
        owner: dict[int, str] = {}
        for pname, value in bound.arguments.items():
            kind = signature.parameters[pname].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                owner.update((id(v), f"*{pname}") for v in value)
            elif kind is inspect.Parameter.VAR_KEYWORD:
                owner.update((id(v), k) for k, v in value.items())
            else:
                owner[id(value)] = pname
        nodes = [*call.args, *(k.value for k in call.keywords)]
        by_param = {owner[id(p)]: (ast.dump(n), ast.unparse(n))
                    for p, n in zip([*positional, *named.values()], nodes) if id(p) in owner}
        return {"func": _qualname(func), "text": text, "args": by_param}


def main() -> None:
    mode = sys.argv[1]
    # JSON goes to files: TensorFlow and tf_upgrade_v2 print to stdout.
    if mode == "cases":
        result = reference(cases(sys.argv[2]))
    elif mode == "check":
        checker = Checker()
        with open(sys.argv[2], encoding="utf-8") as fh:
            result = [checker.check(s) for s in json.load(fh)]
    else:
        raise SystemExit(f"unknown mode {mode}")
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        json.dump(result, out)


if __name__ == "__main__":
    main()
