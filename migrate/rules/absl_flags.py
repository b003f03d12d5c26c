"""TF122: `tf.app.flags` / `tf.flags` / `tf.app.run` → absl's `flags` and `app`.

TF1's flags are absl's: `tf.flags.DEFINE_string` is `absl.flags.DEFINE_string`, one registry.
Two behaviours differ: TF1's `FLAGS` parses `sys.argv` on its first read, where absl's refuses
a read before parsing (`UnparsedFlagAccessError`); and `tf.app.run` passes flags nobody defined
on to `main`, where absl's `app.run` ends the program on them. So a file converts only when it
is a script entered through `tf.app.run(...)` (at the top level or under a `__main__` guard)
and reads flags only inside functions, which run after `app.run` parsed the command line;
anything else keeps TF1's spelling, with a note saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ..codegen import code, copy_lines, record_line
from ..graph import names_read
from ..imports import Aliases
from ..report import Finding
from ..walk import transform, walk
from . import Rule

RULE = Rule(
    id="TF122",
    name="app-flags-to-absl",
    summary="Define and read flags with absl.flags, and enter the program with absl.app.run.",
    doc=(
        "`tf.app.flags`/`tf.flags` name absl's flags module in TF1, so `tf.app.flags.DEFINE_integer` "
        "becomes `flags.DEFINE_integer` with `from absl import flags`, and `tf.app.run()` becomes "
        "`app.run(main)`. A script converts when `tf.app.run` enters it and every flag read sits in "
        "a function (absl refuses reads before its app.run parsed the command line); absl's "
        "app.run also refuses command-line flags the program does not define, which TF1's passed "
        "on to main. A library module, or a script reading flags at the top level, keeps "
        "`tf.compat.v1.flags` (which runs in TF2), with a note."
    ),
    kind="auto",
)

MODULES = frozenset({"app.flags", "flags"})
RUN = "app.run"


def _is_main_guard(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.If) and "__main__" in code(stmt.test) and "__name__" in code(stmt.test)


@dataclass
class _Uses:
    """What the module does with TF1's flags and app modules."""

    modules: list[cst.CSTNode] = field(default_factory=list)  # expressions naming the flags module
    runs: list[cst.Call] = field(default_factory=list)
    module_aliases: dict[int, str] = field(default_factory=dict)  # `flags = tf.app.flags` stmt id -> name
    flags_names: set[str] = field(default_factory=set)  # names (and `flags.FLAGS`) bound to FLAGS
    blocker: str = ""


def _gather(module: cst.Module, aliases: Aliases) -> _Uses:
    uses = _Uses()
    for stmt in module.body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            target, path = small.targets[0].target.value, aliases.resolve(small.value)
            if path in MODULES:
                uses.module_aliases[id(stmt)] = target
                uses.flags_names.add(f"{target}.FLAGS")
            elif path in {f"{m}.FLAGS" for m in MODULES} or code(small.value) in uses.flags_names:
                uses.flags_names.add(target)
    for stmt in module.body:
        top = not isinstance(stmt, (cst.FunctionDef, cst.ClassDef))
        for node in walk(stmt):
            if isinstance(node, cst.Call) and aliases.resolve(node.func) == RUN:
                if not (isinstance(stmt, cst.SimpleStatementLine) or _is_main_guard(stmt)):
                    uses.blocker = "tf.app.run is called inside a function or a block"
                uses.runs.append(node)
            if not isinstance(node, (cst.Attribute, cst.Name)):
                continue
            path = aliases.resolve(node)
            if path is not None and path.startswith("app.") and path != RUN and not path.startswith("app.flags"):
                uses.blocker = f"tf.{path} has no absl form"
            if path in MODULES:
                uses.modules.append(node)
            if top and id(stmt) not in uses.module_aliases and _reads_flags(node, path, uses.flags_names):
                uses.blocker = "flags are read outside functions (absl's FLAGS refuses reads before app.run parses)"
        if isinstance(stmt, cst.ClassDef):
            for node in walk(stmt):
                if isinstance(node, (cst.Attribute, cst.Name)) and _reads_flags(node, aliases.resolve(node), uses.flags_names):
                    uses.blocker = "flags are read in a class body"
    if not uses.blocker and uses.modules and not uses.runs:
        uses.blocker = "no tf.app.run enters the program (absl's FLAGS needs it to parse the command line)"
    return uses


def _reads_flags(node: cst.CSTNode, path: str | None, flags_names: set[str]) -> bool:
    """`FLAGS.x`, through a name bound to FLAGS or the flags module's FLAGS."""
    if isinstance(node, cst.Attribute):
        return code(node.value) in flags_names or (
            path is not None and any(path.startswith(f"{m}.FLAGS.") for m in MODULES))
    return False


def _free(name: str, taken: set[str]) -> str:
    return name if name not in taken else f"absl_{name}"


class _ToAbsl(cst.CSTTransformer):
    def __init__(self, uses: _Uses, flags_name: str, app_name: str, main: str | None) -> None:
        super().__init__()
        self.module_ids = {id(n) for n in uses.modules}
        self.run_ids = {id(c) for c in uses.runs}
        self.flags_name, self.app_name, self.main = flags_name, app_name, main

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) not in self.module_ids  # a module reference is replaced whole

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:
        if id(original_node) in self.module_ids:
            return cst.Name(self.flags_name)
        if id(original_node) in self.run_ids and isinstance(updated_node, cst.Call):
            return _run_call(updated_node, self.app_name, self.main)
        return updated_node


def _run_call(call: cst.Call, app_name: str, main: str | None) -> cst.Call:
    """`app.run(main[, argv=...])` for `tf.app.run(main=None, argv=None)`."""
    given = _main_argument(call)
    entry = str(main) if _needs_main(call) else code(given.value)  # type: ignore[union-attr]
    argv = [f"argv={code(a.value)}" for a in call.args if a is not given]
    new = cst.parse_expression(f"{app_name}.run({', '.join([entry, *argv])})")
    assert isinstance(new, cst.Call)
    return new


def _main_defined(module: cst.Module) -> str | None:
    return "main" if any(isinstance(s, cst.FunctionDef) and s.name.value == "main" for s in module.body) else None


def _main_argument(call: cst.Call) -> cst.Arg | None:
    """`tf.app.run`'s `main` argument (its first, or `main=`)."""
    return next((a for a in call.args if a.keyword is None or a.keyword.value == "main"), None)


def _needs_main(call: cst.Call) -> bool:
    """`tf.app.run()` (or `main=None`): TF1 calls the `main` of the `__main__` module."""
    given = _main_argument(call)
    return given is None or code(given.value) == "None"


def to_absl(module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding]) -> cst.Module:
    """The module with TF1's flags and app spelled absl's, or as it was (with a note why)."""
    uses = _gather(module, aliases)
    if not uses.modules and not uses.runs:
        return module
    main = _main_defined(module)
    if not uses.blocker and any(_needs_main(c) for c in uses.runs) and main is None:
        uses.blocker = "tf.app.run() calls the main of the program's __main__ module, which this file does not define"
    first = (uses.modules or uses.runs)[0]
    if uses.blocker:
        findings.append(Finding(RULE.id, lines.get(id(first), 0), 0,
                                f"tf.app.flags kept as tf.compat.v1.flags: {uses.blocker}", "info"))
        return module
    taken = {n.value for n in names_read(module)} | _top_level_names(module)
    alias_names = set(uses.module_aliases.values())
    flags_name = next(iter(alias_names)) if len(alias_names) == 1 else _free("flags", taken)
    app_name = _free("app", taken)
    new = transform(module, _ToAbsl(uses, flags_name, app_name, main))
    assert isinstance(new, cst.Module)
    body: list[cst.BaseStatement] = []
    wanted = [("flags", flags_name)] if uses.modules else []
    wanted += [("app", app_name)] if uses.runs else []
    for old, stmt in zip(module.body, new.body):
        name = uses.module_aliases.get(id(old))
        if name is None:
            copy_lines(old, stmt, lines)  # a rebuilt statement reports at its own lines
            body.append(stmt)
            continue
        # `flags = tf.app.flags`: the absl imports in its place
        added = _import(sorted([*(w for w in wanted if w[0] != "flags"), ("flags", name)]), stmt.leading_lines)
        record_line(lines, added, lines.get(id(old), 0))
        body.append(added)
        wanted = []
    line = lines.get(id(first), 0)
    if wanted:
        added = _import(sorted(wanted), [])
        record_line(lines, added, line)
        body.insert(_after_tf_import(body), added)
    if uses.modules:
        findings.append(Finding(RULE.id, line, 0, "tf.app.flags → absl.flags (TF1's flags are absl's)", "fixed"))
    run_line = lines.get(id(uses.runs[0]), 0)
    findings.append(Finding(RULE.id, run_line, 0, "tf.app.run → absl.app.run (it refuses command-line flags "
                            "the program does not define, which TF1's passed on to main)", "fixed"))
    return new.with_changes(body=body)


def _import(names: list[tuple[str, str]], leading: list[cst.EmptyLine]) -> cst.SimpleStatementLine:
    parts = ", ".join(n if n == local else f"{n} as {local}" for n, local in names)
    stmt = cst.parse_statement(f"from absl import {parts}\n")
    assert isinstance(stmt, cst.SimpleStatementLine)
    return stmt.with_changes(leading_lines=leading)


def _top_level_names(module: cst.Module) -> set[str]:
    names: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            names.add(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        names.add(code(alias.asname.name) if alias.asname else code(alias.name).split(".")[0])
    return names


def _after_tf_import(body: list[cst.BaseStatement]) -> int:
    """Just after the first top-level statement importing TensorFlow (else at the top)."""
    for i, stmt in enumerate(body):
        if isinstance(stmt, cst.SimpleStatementLine) and any(
            isinstance(s, (cst.Import, cst.ImportFrom)) and "tensorflow" in code(s) for s in stmt.body
        ):
            return i + 1
    return 0
