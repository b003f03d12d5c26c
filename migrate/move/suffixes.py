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
    if not renames:
        return body
    renamer = _Rename(renames)
    out = []
    for stmt in body:
        new = stmt.visit(renamer)
        copy_lines(stmt, new, lines)
        out.append(new)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, renames)) + r")\b")
    findings[:] = [replace(f, message=pattern.sub(lambda m: renames[m.group(1)], f.message)) for f in findings]
    return out


class _Rename(cst.CSTTransformer):
    """Names renamed where they are names: not an attribute's member, nor a keyword."""

    def __init__(self, names: dict[str, str]) -> None:
        super().__init__()
        self.names = names

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return cst.Name(self.names[updated.value]) if updated.value in self.names else updated
