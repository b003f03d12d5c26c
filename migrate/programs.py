"""Programs of several files: a model module with no session, rewritten with its importers.

A module that builds graph code (``variable_scope``, ``get_variable``, placeholders passed
in) and runs no session has no TF2 form of its own: what its functions become (a Keras
Layer or Model built once and called per step) depends on how its importers call them,
and an importer rewritten alone cannot see the variables those functions make. So each
importer is rewritten together with the modules it imports, as one program: the
importer's leading imports, then each module's text, then the rest of the importer, with
``module.name`` read as ``name``. The output is cut back into the files and the names the
importer reads from a module are qualified again (``module.Inference``).

A module is rewritten this way only when every file importing it is, and every one of
those rewrites gives it the same text; otherwise each file is rewritten alone, as before.
Every output must pass the checks a single file's does: it is stable, and it reads no name
that its input had bound.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import libcst as cst

from migrate import name_safety, notebooks, program
from migrate.api import Finding, ParseError, RewriteConfig, rewrite_source
from migrate.graph_classes import ExternalRun
from migrate.report import KEEPS_GRAPH
from migrate.rules.imports import SEGMENT_MARK
from migrate.scope_reads import module_constants
from migrate.wrap_lines import line_limit

SEGMENT = "pass  " + SEGMENT_MARK + "{}"
#: An import of the importer's that names a module of the program, while the files are one
#: script: an import statement still, so code the rewrite adds goes below it as below the others.
IMPORT_MARK = "import tfmigrate__import_{}"
_IMPORT_LINE = re.compile(r"^([ \t]*)import tfmigrate__import_(\d+)$")
#: A line importing a module, in a file not combined with modules (a notebook's cells).
_IMPORTING = r"(?m)^\s*(?:import\s+(?:[\w.]+\s*,\s*)*{0}\b|from\s+{0}\s+import\b)"
RULE = "TF102"


class Refused(Exception):
    """The files cannot be rewritten as one program; each is rewritten alone."""


@dataclass(frozen=True)
class LocalImport:
    """A top-level statement of an importer that imports one module of the tree."""

    module: Path
    line: int  # 1-based, the statement's only line
    alias: str | None  # `import m [as a]`: the name bound; None for `from m import ...`
    names: tuple[str, ...] = ()  # `from m import a, b`: the names


@dataclass
class Outcome:
    """One file's part of a program's rewrite."""

    code: str
    level: str
    findings: list[Finding] = field(default_factory=list)


@dataclass
class _File:
    path: Path
    text: str  # a notebook's: its code cells as one script (`notebooks.to_script`)
    tree: ast.Module
    imports: list[LocalImport]
    nested: set[Path]  # modules of the tree it imports other than at the top level
    notebook: bytes | None = None  # a notebook importer's own bytes
    magics: list[str] = field(default_factory=list)  # the lines its script stands in for


def _text(source: bytes) -> str | None:
    """The source as text when it can be combined: UTF-8, LF line endings, no BOM."""
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if "\r" in text or text.startswith("\ufeff") else text


def _read(path: Path, source: bytes, siblings: dict[tuple[Path, str], Path]) -> _File | None:
    text = _text(source)
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    top: list[LocalImport] = []
    nested: set[Path] = set()
    lines = text.split("\n")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found = [(siblings.get((path.parent, a.name)), a) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found = [(siblings.get((path.parent, node.module)), None)]
        else:
            continue
        local = [(m, a) for m, a in found if m is not None and m != path]
        if not local:
            continue
        whole_line = node.lineno == node.end_lineno and lines[node.lineno - 1].strip() == ast.get_source_segment(text, node)
        if node not in tree.body or len(found) != 1 or not whole_line:
            nested |= {m for m, _ in local}
            continue
        module, alias = local[0]
        if isinstance(node, ast.Import):
            assert alias is not None
            top.append(LocalImport(module, node.lineno, alias.asname or alias.name))
        elif all(a.asname in (None, a.name) and a.name != "*" for a in node.names):
            top.append(LocalImport(module, node.lineno, None, tuple(a.name for a in node.names)))
        else:
            nested.add(module)  # `from m import *` or a renaming import: not combined
    return _File(path, text, tree, top, nested)


def _needs_program(file: _File) -> bool:
    """The module keeps TF1 code when rewritten alone (its functions wait for their callers)."""
    return rewrite_source(file.text, filename=str(file.path), positions=False).level == "partial"


def _graph_module(file: _File) -> bool:
    """A module that builds graph code and runs no session, whose top level only binds names
    (imports, definitions, assignments without calls): importing it earlier changes nothing."""
    if file.notebook is not None or "tensorflow" not in file.text or _names_a_session(file.tree):
        return False
    if file.imports or file.nested:
        return False
    for stmt in file.tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            continue
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and not any(isinstance(n, ast.Call) for n in ast.walk(stmt)):
            continue
        return False
    return True


def _names_a_session(tree: ast.Module) -> bool:
    """The code names a session (a comment naming one does not count)."""
    sessions = ("Session", "InteractiveSession")
    return any(isinstance(n, ast.Attribute) and n.attr in sessions or isinstance(n, ast.Name) and n.id in sessions
               for n in ast.walk(tree))


def _notebook_code(source: bytes) -> str:
    """A notebook's code cells as one script; its whole text when it is no notebook this tool
    reads (then an import anywhere in it counts)."""
    try:
        return notebooks.to_script(source)[0]
    except notebooks.NotebookError:
        return source.decode("utf-8", "replace").replace("\\n", "\n").replace('"', "\n")


@dataclass
class Group:
    """An importer and the graph modules it is rewritten with."""

    importer: _File
    modules: list[_File]


def _files(sources: dict[Path, bytes]) -> dict[Path, _File]:
    """The Python files and notebooks naming tensorflow that can be combined, read; a notebook
    as the script of its code cells (it imports modules, nothing imports it)."""
    siblings = {(p.parent, p.stem): p for p in sources if p.suffix == ".py"}
    found = {}
    for path, source in sources.items():
        if b"tensorflow" not in source:
            continue
        if path.suffix == ".py":
            file = _read(path, source, siblings)
        elif path.suffix == ".ipynb":
            file = _read_notebook(path, source, siblings)
        else:
            continue
        if file is not None:
            found[path] = file
    return found


def _read_notebook(path: Path, source: bytes, siblings: dict[tuple[Path, str], Path]) -> _File | None:
    try:
        script, magics = notebooks.to_script(source)
    except notebooks.NotebookError:
        return None
    file = _read(path, script.encode("utf-8"), siblings)
    if file is not None:
        file.notebook, file.magics = source, magics
    return file


def libraries(sources: dict[Path, bytes]) -> list[_File]:
    """Graph modules no file of the tree imports, under any spelling: rewritten for the
    importers they will have (their functions become Keras models, `rewrite_source(library=)`)."""
    files = _files(sources)
    candidates = [f for f in files.values() if _graph_module(f)]
    if not candidates:
        return []
    texts = {p: _notebook_code(s) if p.suffix == ".ipynb" else s.decode("utf-8", "replace") for p, s in sources.items()}
    found = []
    for file in candidates:
        stem, package = re.escape(file.path.stem), re.escape(file.path.parent.name)
        # a file of its folder importing its name, or one elsewhere naming it through its package
        plain = re.compile(rf"(?m)^[ \t]*(?:from|import)\s[^\n]*\b{stem}\b")
        dotted = re.compile(rf"(?m)^[ \t]*(?:(?:from|import)\s[^\n]*\b{package}\.{stem}\b|from\s+[\w.]*\b{package}\s+import\s[^\n]*\b{stem}\b)")
        importers = [p for p, text in texts.items() if p != file.path
                     and (p.parent == file.path.parent and plain.search(text) or dotted.search(text))]
        if not importers and _needs_program(file):
            found.append(file)
    return found


def plan(sources: dict[Path, bytes]) -> list[Group]:
    """The importers to rewrite with their graph modules: a module is in a group only when
    every file importing it is (a notebook this cannot read keeps what it imports out)."""
    files = _files(sources)
    imported = {imp.module for f in files.values() for imp in f.imports}
    modules = {p for p in imported if p in files and _graph_module(files[p]) and _needs_program(files[p])}
    importers: dict[Path, set[Path]] = {m: set() for m in modules}
    blocked: set[Path] = set()
    for path, file in files.items():
        for m in file.nested & modules:
            blocked.add(m)
        for imp in file.imports:
            if imp.module in modules:
                importers[imp.module].add(path)
    # files this cannot combine (unreadable notebooks, files not naming tensorflow, ...) keep what they import as it is
    others = {p: _notebook_code(s) if p.suffix == ".ipynb" else s.decode("utf-8", "replace")
              for p, s in sources.items() if p not in files}
    kept = {p for p in files if any(q.parent == p.parent and re.search(_IMPORTING.format(re.escape(p.stem)), code)
                                   for q, code in others.items())}
    blocked |= kept & modules
    for m, users in importers.items():
        # an importer that others import for more than its constants cannot change for the module
        if not users or any(u in kept or not _constants_only(files[u], files) for u in users):
            blocked.add(m)
    while True:
        groups = {
            p: [files[imp.module] for imp in f.imports if imp.module in modules]
            for p, f in files.items() if p not in modules and any(imp.module in modules for imp in f.imports)
        }
        dropped = {p for p, mods in groups.items() if any(m.path in blocked for m in mods)}
        newly = {m for p in dropped for m in (x.path for x in groups[p])} - blocked
        if not newly:
            return [Group(files[p], mods) for p, mods in groups.items() if p not in dropped]
        blocked |= newly


def _constants(text: str) -> dict[str, str]:
    """The literal constants of a module's top level (`scope_reads.module_constants`)."""
    return module_constants(cst.parse_module(text))


def _constants_only(importer: _File, files: dict[Path, _File]) -> bool:
    """Every file importing `importer` reads only its literal constants, which its rewrite keeps."""
    constants = _constants(importer.text)
    for file in files.values():
        for imp in file.imports:
            if imp.module != importer.path:
                continue
            if imp.alias is None:
                if not set(imp.names) <= constants.keys():
                    return False
                continue
            reads = [n for n in ast.walk(file.tree) if isinstance(n, ast.Name) and n.id == imp.alias]
            attrs = [n for n in ast.walk(file.tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                     and n.value.id == imp.alias]
            if len(reads) != len(attrs) or any(a.attr not in constants for a in attrs):
                return False
        if importer.path in file.nested:
            return False
    return True


# ------------------------------------------------------------------ combining
def _top_bindings(tree: ast.Module) -> dict[str, str]:
    """Name -> what binds it at the module's top level (`import:<what>` for an import)."""
    found: dict[str, str] = {}
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(_import_bindings(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = "def"  # its body binds names of its own scope
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found[node.id] = "def"
        elif not isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _import_bindings(node: ast.Import | ast.ImportFrom) -> dict[str, str]:
    """The names an import binds, each to `import:<what it binds>`."""
    if isinstance(node, ast.Import):
        return {a.asname or a.name.split(".")[0]: f"import:{a.name if a.asname else a.name.split('.')[0]}"
                for a in node.names}
    return {a.asname or a.name: f"import:{node.module}.{a.name}" for a in node.names}


def _bound_anywhere(tree: ast.Module, skip: set[int]) -> dict[str, str]:
    """Every name the module binds in any scope (lines in `skip` left out), as `_top_bindings`
    tells them; a name bound in a function counts: its reads there are not the module's."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip and isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(_import_bindings(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = "def"
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found[node.id] = "def"
        elif isinstance(node, ast.arg):
            found[node.arg] = "def"
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(dict.fromkeys(node.names, "def"))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found[node.name] = "def"
    return found


def _clashes(left: dict[str, str], right: dict[str, str]) -> list[str]:
    """Names both bind, other than by the same import."""
    return sorted(n for n in left.keys() & right.keys() if not (left[n] == right[n] and left[n].startswith("import:")))


def _header_end(tree: ast.Module) -> int:
    """The number of lines before the importer's first statement that is no import or docstring."""
    for i, stmt in enumerate(tree.body):
        docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)) and not docstring:
            return min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))]) - 1
    return tree.body[-1].end_lineno or 0 if tree.body else 0


def _imports_tensorflow(stmts: list[ast.stmt]) -> bool:
    for stmt in stmts:
        if isinstance(stmt, ast.Import) and any(a.name.split(".")[0] == "tensorflow" for a in stmt.names):
            return True
        if isinstance(stmt, ast.ImportFrom) and (stmt.module or "").split(".")[0] == "tensorflow":
            return True
    return False


@dataclass
class _Combined:
    script: str
    # (first line in the script, line count, file, its first line) of each piece
    pieces: list[tuple[int, int, Path, int]]


def _unqualified(importer: _File, modules: dict[Path, _File]) -> list[str]:
    """The importer's lines with its local imports marked and `alias.name` read as `name`."""
    lines = importer.text.split("\n")
    by_alias = {imp.alias: imp for imp in importer.imports if imp.alias is not None and imp.module in modules}
    edits: dict[int, list[tuple[int, int]]] = {}  # line -> (start, end) byte spans to drop
    for node in ast.walk(importer.tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in by_alias:
            target = _top_bindings(modules[by_alias[node.value.id].module].tree)
            if node.attr not in target:
                raise Refused(f"{node.value.id}.{node.attr} is not a name the module binds")
            value = node.value
            edits.setdefault(value.lineno, []).append((value.col_offset, value.end_col_offset + 1))
    reads = [n for n in ast.walk(importer.tree) if isinstance(n, ast.Name) and n.id in by_alias]
    if len(reads) != sum(len(v) for v in edits.values()):
        raise Refused("the importer uses a module other than by reading its names")
    for number, spans in edits.items():
        raw = lines[number - 1].encode("utf-8")
        for start, end in sorted(spans, reverse=True):
            if raw[end - 1:end] != b".":
                raise Refused("a module's name is read across lines")
            raw = raw[:start] + raw[end:]
        lines[number - 1] = raw.decode("utf-8")
    for k, imp in enumerate(importer.imports):
        if imp.module in modules:
            line = lines[imp.line - 1]
            lines[imp.line - 1] = line[: len(line) - len(line.lstrip())] + IMPORT_MARK.format(k)
    return lines


def combine(importer: _File, modules: list[_File]) -> _Combined:
    """One script of the importer's header, the modules, and the importer's body."""
    by_path = {m.path: m for m in modules}
    skip = {imp.line for imp in importer.imports if imp.module in by_path}
    own = _bound_anywhere(importer.tree, skip)
    tops = [_top_bindings(m.tree) for m in modules]
    for i, top in enumerate(tops):
        if clash := _clashes(top, own):
            raise Refused(f"{importer.path.name} and {modules[i].path.name} both bind {', '.join(clash)}")
        for other in tops[i + 1:]:
            if clash := _clashes(top, other):
                raise Refused(f"two modules bind {', '.join(clash)}")
    for imp in importer.imports:
        if imp.module in by_path and imp.alias is None:
            missing = [n for n in imp.names if n not in _top_bindings(by_path[imp.module].tree)]
            if missing:
                raise Refused(f"{', '.join(missing)} is not a name the module binds")
        if imp.alias is not None and imp.module in by_path and own.get(imp.alias):
            raise Refused(f"{imp.alias} is bound again in {importer.path.name}")
    header = _header_end(importer.tree)
    header_stmts = [s for s in importer.tree.body if s.end_lineno is not None and s.end_lineno <= header]
    if not _imports_tensorflow(header_stmts):
        raise Refused("the importer does not import TensorFlow before its code")
    lines = _unqualified(importer, by_path)
    parts: list[str] = lines[:header]
    pieces = [(1, header, importer.path, 1)]
    for k, module in enumerate(modules, 1):
        body = module.text.split("\n")
        if body and body[-1] == "":
            body = body[:-1]
        parts.append(SEGMENT.format(k))
        pieces.append((len(parts) + 1, len(body), module.path, 1))
        parts += body
    parts.append(SEGMENT.format(0))
    rest = lines[header:]
    pieces.append((len(parts) + 1, len(rest), importer.path, header + 1))
    parts += rest
    return _Combined("\n".join(parts), pieces)


# ------------------------------------------------------------------ cutting back
def _segments(code: str, count: int) -> tuple[list[str], list[list[str]], list[str]]:
    """The output's header, module pieces and body, cut at the segment marks."""
    lines = code.split("\n")
    marks = [i for i, line in enumerate(lines) if line.startswith("pass  " + SEGMENT_MARK)]
    expected = [SEGMENT.format(k) for k in [*range(1, count + 1), 0]]
    if [lines[i] for i in marks] != expected:
        raise Refused("the rewrite would move code between files")
    pieces = [lines[a + 1:b] for a, b in pairwise(marks)]
    return lines[: marks[0]], pieces, lines[marks[-1] + 1:]


def _trimmed(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _edges(text: str) -> tuple[int, int]:
    """Blank lines at the start of `text` and after its last line of code."""
    lines = text.split("\n")
    lead = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    tail = next((i for i, line in enumerate(reversed(lines)) if line.strip()), len(lines))
    return lead, tail


def _module_text(lines: list[str], original: str) -> str:
    """A module's piece of the output with the blank lines around it as the original had."""
    lead, tail = _edges(original)
    return "\n" * lead + "\n".join(_trimmed(lines)) + "\n" * tail


def _importer_text(header: list[str], body: list[str], importer: _File) -> str:
    """The importer's header and body joined with the blank lines the original had between."""
    end = _header_end(importer.tree)
    original = importer.text.split("\n")[:end]
    gap = len(original) - len(_trimmed_end(original))
    return "\n".join([*_trimmed_end(header), *[""] * gap, *body])


def _trimmed_end(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _without_instances(piece: list[str], original: str) -> tuple[list[str], list[str]]:
    """The module's piece without the model instances the rewrite made in it, and their lines.

    An instance is configured by its importer's call (`Inference(regularizer=...)`), so it is
    the importer's: the module keeps only the classes, the same for every importer."""
    text = "\n".join(piece)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return piece, []
    classes = {s.name for s in tree.body if isinstance(s, ast.ClassDef)}
    drop: set[int] = set()
    made: list[str] = []
    for stmt in tree.body:
        source = ast.get_source_segment(text, stmt) or ""
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                and stmt.value.func.id in classes and source not in original):
            rows = range(stmt.lineno - 1, stmt.end_lineno or stmt.lineno)
            made += [piece[r] for r in rows]
            drop |= set(rows)
    return [line for r, line in enumerate(piece) if r not in drop], made


def _instances_renamed(
    code: str, instances: list[str], importer: _File, modules: list[str],
) -> tuple[str, dict[str, str]]:
    """The importer's output with each model instance named as a module it imports (`forward =
    Forward(...)` where `import forward` holds `def forward`) renamed `forward_model`: the name
    stays the module's. Before requalifying, the output reads the modules' names unqualified,
    so every other `forward` of it is the instance. Also returns the new names."""
    try:
        made = {t.id for s in ast.parse("\n".join(line.strip() for line in instances)).body
                if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)}
        tree = ast.parse(code)
    except SyntaxError:
        return code, {}  # a statement over several lines: left to the requalification's check
    clashes = made & {imp.alias for imp in importer.imports if imp.alias is not None}
    if not clashes:
        return code, {}
    taken = {n.id for text in [code, *modules] for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    lines = code.split("\n")
    edits: dict[int, list[tuple[int, int, str]]] = {}
    renamed: dict[str, str] = {}
    for name in sorted(clashes):
        fresh = renamed[name] = f"{name}_model"
        while fresh in taken:
            fresh = renamed[name] = fresh + "_"
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == name and node.end_col_offset is not None:
                edits.setdefault(node.lineno, []).append((node.col_offset, node.end_col_offset, fresh))
    for number, spans in edits.items():
        raw = lines[number - 1].encode("utf-8")
        for start, end, text in sorted(spans, reverse=True):
            raw = raw[:start] + text.encode("utf-8") + raw[end:]
        lines[number - 1] = raw.decode("utf-8")
    return "\n".join(lines), renamed


def _renamed_in(finding: Finding, renamed: dict[str, str]) -> Finding:
    """The finding naming an instance by the name the importer gives it."""
    for old, new in renamed.items():
        if finding.message.endswith(f"created once as {old}"):
            return dataclasses.replace(finding, message=finding.message.removesuffix(old) + new)
    return finding


def _restored_imports(lines: list[str], importer: _File) -> list[str]:
    """The importer's output lines with its marked imports as they were."""
    out = []
    original = importer.text.split("\n")
    for line in lines:
        mark = _IMPORT_LINE.match(line)
        out.append(mark.group(1) + original[importer.imports[int(mark.group(2))].line - 1].lstrip() if mark else line)
    return out


def _requalified(code: str, importer: _File, modules: list[_File], outputs: list[str]) -> str:
    """The importer's output reading each module's names through the module again: `alias.name`
    for `import module [as alias]`, and `from module import ...` listing the names read."""
    tree = ast.parse(code)
    by_path = {m.path: i for i, m in enumerate(modules)}
    imports = [imp for imp in importer.imports if imp.module in by_path]
    original = importer.text.split("\n")
    lines = code.split("\n")
    # the imports' own lines, where lines the rewrite added above them moved them
    at = {imp.line: next((i for i, line in enumerate(lines) if line == original[imp.line - 1]), imp.line - 1)
          for imp in imports}
    own = _bound_anywhere(tree, {row + 1 for row in at.values()})
    provided: dict[str, LocalImport] = {}
    for imp in imports:
        top = _top_bindings(ast.parse(outputs[by_path[imp.module]]))
        # a module's own imports are no names of it: the importer imports what it reads itself
        for name in (n for n, kind in top.items() if not kind.startswith("import:")):
            if name in provided and provided[name].module != imp.module:
                raise Refused(f"two modules bind {name}")
            provided.setdefault(name, imp)
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
             and n.id in provided and n.id not in own]
    for imp in imports:
        kind = own.get(imp.alias or "")
        # the import itself, moved by lines the rewrite added above it, binds it as before
        itself = kind is not None and kind.startswith("import:") and kind.rsplit(".", 1)[-1].removeprefix(
            "import:") == imp.module.stem
        if imp.alias is not None and kind and not itself:
            raise Refused(f"the rewrite binds {imp.alias}, the name of an imported module")
    edits: dict[int, list[tuple[int, str]]] = {}
    wanted: dict[int, list[str]] = {imp.line: list(imp.names) for imp in imports if imp.alias is None}
    for node in reads:
        imp = provided[node.id]
        if imp.alias is not None:
            edits.setdefault(node.lineno, []).append((node.col_offset, f"{imp.alias}."))
        elif node.id not in wanted[imp.line]:
            wanted[imp.line].append(node.id)
    for number, inserts in edits.items():
        raw = lines[number - 1].encode("utf-8")
        for at, text in sorted(inserts, reverse=True):
            raw = raw[:at] + text.encode("utf-8") + raw[at:]
        lines[number - 1] = raw.decode("utf-8")
    read = {n.id for n in reads}
    replaced: dict[int, str | None] = {}  # row -> its new text; None: the row goes
    for imp in imports:
        names = [n for n in wanted.get(imp.line, []) if n in read]
        if imp.alias is not None or names == list(imp.names):
            continue
        row = at[imp.line]
        indent = lines[row][: len(lines[row]) - len(lines[row].lstrip())]
        replaced[row] = f"{indent}from {imp.module.stem} import {', '.join(names)}" if names else None
    kept = [replaced.get(i, line) for i, line in enumerate(lines)]
    return "\n".join(line for line in kept if line is not None)


def _file_findings(findings: list[Finding], combined: _Combined) -> dict[Path, list[Finding]]:
    """The program's findings by file, on the files' own lines."""
    out: dict[Path, list[Finding]] = {}
    for finding in findings:
        for start, count, path, first in combined.pieces:
            if start <= finding.line < start + count:
                out.setdefault(path, []).append(
                    Finding(finding.rule, finding.line - start + first, finding.col, finding.message, finding.kind))
                break
    return out


def rewrite_group(
    group: Group, config: RewriteConfig, runs: dict[str, list[ExternalRun]] | None = None,
    line_length: int | None = None,
) -> dict[Path, Outcome]:
    """Each file of the group as the program's rewrite left it; :class:`Refused` when the files
    must be rewritten one by one. ``runs``: the run sites on instances of the modules' classes
    in every file importing them (see `outside_runs`); ``line_length``: the one the programs of
    the tree share (see `rewrite_tree`)."""
    combined = combine(group.importer, group.modules)
    program_config = dataclasses.replace(config, line_length=line_length or line_limit(combined.script))
    try:
        result = rewrite_source(combined.script, filename=str(group.importer.path), config=program_config,
                                outside_runs=runs)
    except ParseError as error:  # `from __future__` in a module, which must open its file
        raise Refused(f"the files do not parse as one program: {error}") from None
    graph = next((f for f in result.findings if f.message.endswith(KEEPS_GRAPH)), None)
    if graph is not None:
        raise Refused(graph.message)
    if not result.changed:
        raise Refused("the program's rewrite changes nothing")
    header, pieces, body = _segments(str(result.code), len(group.modules))
    if any(_IMPORT_LINE.match(line) for piece in pieces for line in piece):
        raise Refused("the rewrite would move an import between files")
    instances: list[str] = []
    for i, (piece, module) in enumerate(zip(pieces, group.modules)):
        pieces[i], made = _without_instances(piece, module.text)
        instances += made
    modules = [_module_text(piece, m.text) for piece, m in zip(pieces, group.modules)]
    header = _restored_imports(header, group.importer)
    if instances:
        kept = _trimmed_end(header)
        # below a class or function the rewrite defined there, two blank lines, as between definitions
        gap = ["", ""] if kept and kept[-1][:1].isspace() else [""]
        header = [*kept, *gap, *instances]
    importer = _importer_text(header, _restored_imports(body, group.importer), group.importer)
    importer, renamed = _instances_renamed(importer, instances, group.importer, modules)
    try:
        importer = _requalified(importer, group.importer, group.modules, modules)
    except SyntaxError as error:  # pragma: no cover - a cut in the wrong place
        raise Refused(f"the importer's part does not parse: {error}") from None
    if not _constants(group.importer.text).items() <= _constants(importer).items():
        raise Refused("the rewrite changes a constant that other files import")
    found = _file_findings([_renamed_in(f, renamed) for f in result.findings], combined)
    outcomes: dict[Path, Outcome] = {}
    for file, code in [(group.importer, importer), *zip(group.modules, modules)]:
        refused = name_safety.refusal(file.text, code)
        if refused is not None:
            raise Refused(f"{file.path.name}: {refused}")
        if rewrite_source(code, filename=str(file.path), config=config, positions=False).changed:
            raise Refused(f"{file.path.name}: the rewrite is not stable")
        own = found.get(file.path, [])
        level = "partial" if any(f.kind == "manual" for f in own) else "idiomatic"
        original = file.text
        if file.notebook is not None:
            original = file.notebook.decode("utf-8")
            try:
                code = notebooks.from_script(file.notebook, code, file.magics)
            except notebooks.NotebookError as error:
                raise Refused(f"{file.path.name}: {error}") from None
        outcomes[file.path] = Outcome(code, level if code != original else "untouched", own)
    return outcomes


def outside_runs(groups: list[Group]) -> dict[tuple[Path, str], list[ExternalRun]]:
    """By module and class, the run sites on its instances in every importer (in path order):
    a class several scripts run (train.py its train op, predict.py its prediction) then gets
    the same steps, and so the same code, in each script's program. A class of the same name
    in another module (v1/model.py, v2/model.py) is another class."""
    found: dict[tuple[Path, str], list[ExternalRun]] = {}
    for group in sorted(groups, key=lambda g: g.importer.path):
        by_path = {m.path: m for m in group.modules}
        defined = {s.name: m.path for m in group.modules for s in m.tree.body if isinstance(s, ast.ClassDef)}
        try:
            module = cst.parse_module("\n".join(_unqualified(group.importer, by_path)))
        except (Refused, cst.ParserSyntaxError):
            continue  # the group is refused when it is combined
        for cls, sites in program.outside_runs(module, set(defined)).items():
            known = found.setdefault((defined[cls], cls), [])
            known += [site for site in sites if site not in known]
    return found


def _runs_of(group: Group, runs: dict[tuple[Path, str], list[ExternalRun]]) -> dict[str, list[ExternalRun]]:
    """The run sites on instances of the classes of the group's modules, by class."""
    paths = {m.path for m in group.modules}
    return {cls: sites for (path, cls), sites in runs.items() if path in paths}


def _library(file: _File, config: RewriteConfig) -> Outcome | None:
    """A library's rewrite, when it is idiomatic and passes a file's checks."""
    result = rewrite_source(file.text, filename=str(file.path), config=config, library=True)
    code = result.code
    assert isinstance(code, str)
    if result.level != "idiomatic" or name_safety.refusal(file.text, code) is not None:
        return None
    if rewrite_source(code, filename=str(file.path), config=config, positions=False, library=True).changed:
        return None
    note = Finding(RULE, 1, 1, "no file given with this module imports it: its functions were rewritten for "
                   "the code that will (the findings say how that code calls them now)", "info")
    return Outcome(code, "idiomatic", [note, *result.findings])


def rewrite_tree(sources: dict[Path, bytes], config: RewriteConfig) -> tuple[dict[Path, Outcome], dict[Path, Finding]]:
    """The files rewritten as programs of several files, and for each importer of a graph
    module that was not, a finding saying why (each of those files is rewritten alone)."""
    groups = plan(sources)
    runs = outside_runs(groups)
    # one line length for every program: a module's text must not depend on the importer it is
    # cut from, and no line a user wrote is longer (`wrap_lines.line_limit`)
    length = max((line_limit(f.text) for g in groups for f in [g.importer, *g.modules]), default=None)
    done: dict[Path, dict[Path, Outcome]] = {}
    why: dict[Path, str] = {}
    for group in groups:
        try:
            done[group.importer.path] = rewrite_group(group, config, _runs_of(group, runs), length)
        except Refused as error:
            why[group.importer.path] = str(error)
    users: dict[Path, list[Path]] = {}
    for group in groups:
        for m in group.modules:
            users.setdefault(m.path, []).append(group.importer.path)
    while True:
        bad: dict[Path, str] = {}
        for m, imps in users.items():
            if any(i not in done for i in imps):
                bad[m] = f"{m.name} is imported by a file that cannot change with it"
            elif len({done[i][m].code for i in imps}) != 1:
                bad[m] = f"the files importing {m.name} would change it in different ways"
        stale = {i: reason for i in done for m, reason in bad.items() if m in done[i]}
        if not stale:
            break
        for i, reason in stale.items():
            why.setdefault(i, reason)
            del done[i]
    out: dict[Path, Outcome] = {}
    for importer, outcomes in done.items():
        for path, outcome in outcomes.items():
            if path != importer and path not in out:
                names = ", ".join(sorted(p.name for p in users[path]))
                outcome.findings.append(Finding(
                    RULE, 1, 1, f"rewritten as one program with {names}, which import it; code importing it "
                    "from other files must change as those did", "info"))
            out.setdefault(path, outcome)
    for library in libraries(sources):
        outcome = _library(library, config)
        if outcome is not None:
            out[library.path] = outcome
    refused: dict[Path, Finding] = {}
    for group in groups:
        if group.importer.path in why:
            line = min(imp.line for imp in group.importer.imports if imp.module in {m.path for m in group.modules})
            names = ", ".join(m.path.name for m in group.modules)
            refused[group.importer.path] = Finding(
                RULE, line, 1, f"not rewritten with {names} as one program: {why[group.importer.path]}", "info")
    return out, refused
