"""Fresh names given back their base: a name the move suffixed (`optimizer_2`, because the
user's train op was `optimizer`) takes the plain name when the rewrite left no other use
of it (the train op moved into its step, unbound), so no two things read apart by a number."""

from __future__ import annotations

import builtins
import re
from dataclasses import replace

import libcst as cst

from ..codegen import copy_lines
from ..graph_classes import PREFIX as SELF_PREFIX
from ..report import Finding
from ..walk import walk


def unsuffixed(
    body: list[cst.BaseStatement], suffixed: dict[str, str], lines: dict[int, int], findings: list[Finding],
) -> list[cst.BaseStatement]:
    """`body` with each suffixed name whose base it no longer names (in any position) renamed
    to the base; the findings' messages follow."""
    present = {n.value for stmt in body for n in walk(stmt) if type(n) is cst.Name}
    renames: dict[str, str] = {}
    for name, base in suffixed.items():  # in the order they were made: the first takes the base
        if (name in present and base not in present and base not in renames.values()
                and not base.startswith(SELF_PREFIX) and not hasattr(builtins, base)):
            renames[name] = base
    local = _local_renames(body, {n: b for n, b in suffixed.items() if n in present and n not in renames})
    if not renames and not local:
        return body
    renamer = _Rename(renames, local)
    out = []
    for stmt in body:
        new = stmt.visit(renamer)
        copy_lines(stmt, new, lines)
        out.append(new)
    renames = {**renames, **{name: base for (_, name), base in local.items()}}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, renames)) + r")\b")
    findings[:] = [replace(f, message=pattern.sub(lambda m: renames[m.group(1)], f.message)) for f in findings]
    return out


def _local_renames(body: list[cst.BaseStatement], suffixed: dict[str, str]) -> dict[tuple[int, str], str]:
    """(id of a function, suffixed name) -> base, for a name all of whose uses stand in one
    function that never names the base (`loss_2` inside a step, beside the caller's `loss`):
    there the base, a local of that function, names nothing else."""
    functions = [n for stmt in body for n in walk(stmt) if isinstance(n, cst.FunctionDef)]
    found: dict[tuple[int, str], str] = {}
    for name, base in suffixed.items():
        if base.startswith(SELF_PREFIX) or hasattr(builtins, base):
            continue
        everywhere = sum(1 for stmt in body for n in walk(stmt) if type(n) is cst.Name and n.value == name)
        for func in functions:
            names = [n.value for n in walk(func) if type(n) is cst.Name]
            if (names.count(name) == everywhere and base not in names and func.name.value != name
                    and not any(isinstance(n, (cst.Global, cst.Nonlocal)) for n in walk(func))):
                inner = [n for n in walk(func.body) if isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef))]
                if not any(n for f in inner for n in walk(f) if type(n) is cst.Name and n.value == name):
                    found[(id(func), name)] = base  # the innermost function holding every use
    return found


class _Rename(cst.CSTTransformer):
    """Names renamed where they are names: not an attribute's member, nor a keyword; `local`
    renames only inside the function of that id."""

    def __init__(self, names: dict[str, str], local: dict[tuple[int, str], str] | None = None) -> None:
        super().__init__()
        self.names = dict(names)
        self.local = local or {}
        self.stack: list[dict[str, str]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        inside = {name: base for (func, name), base in self.local.items() if func == id(node)}
        self.stack.append(self.names)
        self.names = {**self.names, **inside}
        return True

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.names = self.stack.pop()
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return cst.Name(self.names[updated.value]) if updated.value in self.names else updated
