"""Does a source run on this TensorFlow as far as names and call arguments go? (run under the referee)

For each source: every import of a ``tensorflow`` module succeeds, every attribute chain rooted
at a TensorFlow alias (an import, or ``x = tf.y``) resolves, and every call of a resolved
function binds to its signature (``inspect.signature(f).bind``, a placeholder for each
argument). Per call it also returns which parameter each argument binds to (its syntax tree
and source), so two rewrites of one call can be compared. Used by
``benchmarks/upgrade_parity.py`` and ``tests/rewrite/test_api_data_on_tf.py``; run as
``PYTHON tests/api_check.py SOURCES.json CHECKS.json``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import sys
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


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


def check_all(sources: list[str]) -> list[dict]:
    checker = Checker()
    return [checker.check(s) for s in sources]


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as fh:
        result = check_all(json.load(fh))
    with open(sys.argv[2], "w", encoding="utf-8") as out:  # stdout is TensorFlow's
        json.dump(result, out)
