"""Resolve which names in a module refer to TensorFlow, through any import form.

Every TensorFlow symbol is reduced to a *canonical path* relative to the TF1 namespace:
`tf.log`, `tf.compat.v1.log`, `v1.log` (after `from tensorflow.compat import v1`) and `log`
(after `from tensorflow import log`) are all `"log"`. `import numpy as tf` binds nothing.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import libcst as cst

_ROOTS = ("tensorflow.compat.v1", "tensorflow.compat.v2", "tensorflow")


def dotted(node: cst.BaseExpression) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None for anything that is not a plain name chain."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return parts[::-1]


def _module_path(node: cst.BaseExpression) -> str:
    parts = dotted(node)
    return ".".join(parts) if parts else ""


def _strip_root(path: str) -> str | None:
    """Canonical path of a dotted module path, or None when it is not TensorFlow."""
    for root in _ROOTS:
        if path == root:
            return ""
        if path.startswith(root + "."):
            return path[len(root) + 1 :]
    return None


# What `tf.contrib.slim` holds of its own; the rest of its names are `tf.contrib.layers`'s.
_SLIM_OWN = frozenset({
    "arg_scope", "add_arg_scope", "model_variable", "variable", "get_variables", "get_model_variables",
    "get_variables_to_restore", "losses", "metrics", "nets", "learning", "evaluation", "data", "queues",
    "summaries", "prefetch_queue",
})


def canonical(path: str) -> str:
    """Drop `compat.v1.` / `compat.v2.` so both spellings map to one table key; a layer function
    through `contrib.slim` is `contrib.layers`'s."""
    for prefix in ("compat.v1.", "compat.v2."):
        if path.startswith(prefix):
            path = path[len(prefix) :]
            break
    if path.startswith("contrib.slim.") and path.split(".")[2] not in _SLIM_OWN:
        return "contrib.layers." + path[len("contrib.slim."):]
    return path


def _contrib_alias(target: str, value: str | None, aliases: Aliases) -> None:
    """`slim = tf.contrib.slim`: a module-level name for a contrib module, bound like an import."""
    if value is None:
        return
    head, _, rest = value.partition(".")
    base = aliases.modules.get(head)
    if base is None:
        return
    path = canonical(".".join(p for p in (base, rest) if p))
    if path.startswith("contrib.") and path.count(".") == 1:
        aliases.modules[target] = path


@dataclass
class Aliases:
    """Names bound to TensorFlow modules or symbols at module level."""

    modules: dict[str, str] = field(default_factory=dict)  # local name -> canonical module path
    symbols: dict[str, str] = field(default_factory=dict)  # local name -> canonical symbol path
    uses_v1_import: bool = False
    v1_names: set[str] = field(default_factory=set)  # local names of `tensorflow.compat.v1` itself
    uses_v2_import: bool = False  # `tensorflow.compat.v2` imported: code written for TF2's API

    def __bool__(self) -> bool:
        return bool(self.modules or self.symbols)

    def resolve(self, node: cst.BaseExpression) -> str | None:
        """Canonical TF path of a name/attribute chain, or None."""
        parts = dotted(node)
        if not parts:
            return None
        head, rest = parts[0], parts[1:]
        if head in self.modules:
            base = self.modules[head]
        elif head in self.symbols:
            base = self.symbols[head]
        else:
            return None
        return canonical(".".join(([base] if base else []) + rest))

    def is_tf_module(self, name: str) -> bool:
        return name in self.modules

    def means_tf2(self, node: cst.BaseExpression) -> bool:
        """A name reached through `tensorflow` in a file that imports `tensorflow.compat.v1`
        under another name too (the TF guides' style): it means TF2's function; `v1.x`
        means TF1's."""
        parts = dotted(node)
        if not parts or not self.v1_names or parts[0] in self.v1_names:
            return False
        return self.modules.get(parts[0]) == ""


def _record_import(stmt: cst.CSTNode, aliases: Aliases) -> bool:
    """Record the TensorFlow bindings of one import statement; True if it imported TF."""
    found = False
    if isinstance(stmt, cst.Import):
        for alias in stmt.names:
            path = _module_path(alias.name)
            base = _strip_root(path)
            if base is None:
                continue
            found = True
            if alias.asname is not None:
                local = alias.asname.name.value  # type: ignore[union-attr]
                aliases.modules[local] = canonical(base) if base else ""
                if path == "tensorflow.compat.v1":
                    aliases.v1_names.add(local)
            else:
                aliases.modules["tensorflow"] = ""
            if path.startswith("tensorflow.compat.v1"):
                aliases.uses_v1_import = True
            aliases.uses_v2_import = aliases.uses_v2_import or path.startswith("tensorflow.compat.v2")
    elif isinstance(stmt, cst.ImportFrom) and stmt.module is not None and stmt.relative == ():
        path = _module_path(stmt.module)
        base = _strip_root(path)
        if base is None or isinstance(stmt.names, cst.ImportStar):
            return False
        found = True
        for alias in stmt.names:
            name = _module_path(alias.name)
            local = alias.asname.name.value if alias.asname else name  # type: ignore[union-attr]
            full = canonical(f"{base}.{name}" if base else name)
            if full in ("compat.v1", "compat.v2", "compat"):
                aliases.modules[local] = ""
                aliases.uses_v1_import = aliases.uses_v1_import or full == "compat.v1"
                aliases.uses_v2_import = aliases.uses_v2_import or full == "compat.v2"
                if full == "compat.v1":
                    aliases.v1_names.add(local)
            else:
                aliases.symbols[local] = full
    return found


def collect_aliases(module: cst.Module) -> Aliases:
    """Walk module-level imports, including those inside try/except shims and `if` blocks."""
    aliases = Aliases()

    def walk(body: list[cst.CSTNode] | tuple[cst.CSTNode, ...]) -> None:
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    _record_import(small, aliases)
                    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                        _contrib_alias(small.targets[0].target.value, _module_path(small.value) or None, aliases)
            elif isinstance(stmt, cst.Try):
                walk(stmt.body.body)
                for handler in stmt.handlers:
                    walk(handler.body.body)
            elif isinstance(stmt, cst.If):
                walk(stmt.body.body)

    walk(module.body)
    return aliases


def _ast_dotted(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *parts[::-1]])


def collect_aliases_ast(tree: ast.Module) -> Aliases:
    """`collect_aliases` on the stdlib tree: the cheap pre-check before any CST is built."""
    aliases = Aliases()

    def walk(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    base = _strip_root(alias.name)
                    if base is None:
                        continue
                    local = alias.asname or "tensorflow"
                    aliases.modules[local] = canonical(base) if alias.asname and base else ""
                    if alias.name.startswith("tensorflow.compat.v1"):
                        aliases.uses_v1_import = True
                    aliases.uses_v2_import = aliases.uses_v2_import or alias.name.startswith("tensorflow.compat.v2")
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                base = _strip_root(stmt.module)
                if base is None:
                    continue
                for alias in stmt.names:
                    if alias.name == "*":
                        continue
                    local = alias.asname or alias.name
                    full = canonical(f"{base}.{alias.name}" if base else alias.name)
                    if full in ("compat.v1", "compat.v2", "compat"):
                        aliases.modules[local] = ""
                        aliases.uses_v1_import = aliases.uses_v1_import or full == "compat.v1"
                        aliases.uses_v2_import = aliases.uses_v2_import or full == "compat.v2"
                    else:
                        aliases.symbols[local] = full
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                chain = _ast_dotted(stmt.value)
                _contrib_alias(stmt.targets[0].id, chain, aliases)
            elif isinstance(stmt, ast.Try):
                walk(stmt.body)
                for handler in stmt.handlers:
                    walk(handler.body)
            elif isinstance(stmt, ast.If):
                walk(stmt.body)

    walk(tree.body)
    return aliases
