"""The TensorFlow team's migration guides as a peer suite: their TF1 snippets, rewritten, on TF 2.21.

    python benchmarks/guide_pairs.py GUIDES_DIR --tf-python PY [--tf1-python PY215] [--keras2-python PY]
        [--only NAME ...] [--timeout 180] [--keep DIR] [--record]

GUIDES_DIR holds the notebooks of tensorflow/docs ``site/en/guide/migrate/`` (kept out of
this tree: peer material is measured, never committed). Each notebook is cut at its
markdown headings; a section headed ``TensorFlow 1``/``TF1``/``Before`` is one TF1 snippet,
run as a program made of the notebook's set-up cells (the code before its first TF1 or TF2
heading), the earlier cells that bind a name it reads or write a file it reads (the notebook
runs top to bottom), and the section's cells. IPython lines (``%magic``, ``!shell`` and their
continuations) are dropped and a cell's last bare expression is printed, as the notebook shows it.

For each snippet:
1. the original runs on ``--tf-python`` (TF 2.21, where ``tf.compat.v1`` runs TF1 code);
   when it needs what 2.21 removed (``tf.estimator``), on ``--tf1-python`` (e.g. TF 2.15);
   when it needs Keras 2 (``tf1.layers``, the model-mapping shims), on ``--keras2-python``
   (TF 2.21 with ``tf_keras``, ``TF_USE_LEGACY_KERAS=1``);
   it runs twice, and a snippet whose two runs print different numbers is *nondeterministic*:
   only whether its rewrite runs is counted;
2. ``migrate.process.rewrite_bytes`` rewrites it (the ``tfmigrate rewrite`` path);
3. the rewrite runs on TF 2.21 with Keras 3, and its output is compared with the original's
   with the tolerance ``verify`` uses for printed numbers.

Outcome per snippet: *tf1 does not run* (not counted), *refused* (the rewriter left it as it
was), *crashes on 2.21*, *prints other numbers*, *runs* (an original that prints nothing or other
numbers each run) or *prints the TF1 numbers*. The table also gives the snippet's own cells
(their indices in the notebook) and the rewrite's level; ``--keep`` writes each program, its
rewrite and what each printed.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate.api import RewriteConfig
from migrate.process import PROBLEM_TYPES, problem_message, rewrite_bytes
from runtime.observables import Stats, Tolerance
from runtime.printed_output import compare_stdout
from tests import tf_runner

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
TF1_HEADING = re.compile(r"^#+\s*(TensorFlow 1\b|TF1\b|TF 1\b|Before\b)", re.IGNORECASE)
TF2_HEADING = re.compile(r"^#+\s*(TensorFlow 2\b|TF2\b|TF 2\b|After\b)", re.IGNORECASE)
SETUP_HEADING = re.compile(r"^#+\s*(Setup|Overview|Copyright)\b", re.IGNORECASE)
TF1_CALL = re.compile(r"\b(tf1|v1|tf\.compat\.v1)\.\w")
#: compat.v1 test utilities the guides' TF2 cells use too: a cell calling only these is no TF1 code.
TEST_UTILITIES = re.compile(r"\b(tf1|v1|tf\.compat\.v1)\.keras\.utils\.DeterministicRandomTestTool\b")
#: Which referee runs an original, by what it uses, first match: TF1 names that TF 2.16
#: removed need an older TensorFlow; Keras 2 behaviour (``tf.compat.v1`` Keras utilities,
#: ``tf1.layers``) needs TF 2.21 with ``tf_keras`` as its Keras.
REFEREES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bestimator\b|\bfeature_column\b"), "tf1"),
    (re.compile(r"track_tf1_style_variables|DeterministicRandomTestTool|\b(tf1|v1)\.(layers|keras)\b"), "keras2"),
]
LABELS = {"tf2": "2.21", "tf1": "older TF", "keras2": "2.21 + tf_keras"}
ENV = {"CUDA_VISIBLE_DEVICES": ""}


@dataclass
class Snippet:
    name: str
    source: str
    cells: tuple[int, ...] = ()


@dataclass
class Outcome:
    name: str
    outcome: str
    level: str = "-"
    referee: str = "-"
    detail: str = ""
    cells: tuple[int, ...] = ()


@dataclass
class _Cell:
    """A code cell as a script, with what it needs from earlier cells and what it leaves them."""

    index: int
    script: str
    binds: frozenset[str]
    reads: frozenset[str]
    writes: frozenset[str]
    paths: frozenset[str]


#: Calls whose string arguments name a file the cell writes (a checkpoint, a SavedModel, a move).
WRITER = re.compile(r"save|export|builder|write|move|copy", re.IGNORECASE)
BUILTINS = frozenset(dir(builtins))


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _module_names(tree: ast.Module) -> set[str]:
    """The names ``tree`` binds at module level (what later cells can read)."""
    names: set[str] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        pending.extend(ast.iter_child_nodes(node))
    return names


def _cell(index: int, script: str) -> _Cell:
    """What ``script`` binds, the names it reads unbound, and the file names it writes and mentions."""
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return _Cell(index, script, frozenset(), frozenset(), frozenset(), frozenset())
    local: set[str] = set()
    loads: set[str] = set()
    writes: set[str] = set()
    strings: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else local).add(node.id)
        elif isinstance(node, ast.arg):
            local.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
        elif isinstance(node, ast.Call) and WRITER.search(_callee(node)):
            arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
            writes.update(a.value for a in arguments if isinstance(a, ast.Constant) and isinstance(a.value, str))
    binds = _module_names(tree)
    return _Cell(index, script, frozenset(binds), frozenset(loads - binds - local - BUILTINS), frozenset(writes),
                 frozenset(strings - writes))


def _written(path: str, written: str) -> bool:
    """Whether ``path`` names the file saved as ``written`` (a checkpoint saved as ``ckpt`` is read as ``ckpt-1``)."""
    return path == written or path.startswith(f"{written}-") and path[len(written) + 1:].isdigit()


def _needed(own: list[_Cell], earlier: list[_Cell], given: frozenset[str]) -> list[_Cell]:
    """The earlier cells ``own`` depends on, in notebook order: for each name it reads unbound
    and each file it reads, the last earlier cell that binds or writes it, and theirs in turn."""
    taken: dict[int, _Cell] = {}
    pending = list(own)
    while pending:
        cell = pending.pop()
        before = [c for c in earlier if c.index < cell.index and c.index not in taken]
        for name in cell.reads - given:
            source = next((c for c in reversed(before) if name in c.binds), None)
            if source is not None and source.index not in taken:
                taken[source.index] = source
                pending.append(source)
        for path in cell.paths:
            source = next((c for c in reversed(before) if any(_written(path, w) for w in c.writes)), None)
            if source is not None and source.index not in taken:
                taken[source.index] = source
                pending.append(source)
    return [taken[i] for i in sorted(taken) if i not in {c.index for c in own}]


def _headings(cell: dict) -> list[str]:
    return [line for line in "".join(cell["source"]).splitlines() if line.startswith("#")]


def _level(heading: str) -> int:
    return len(heading) - len(heading.lstrip("#"))


def _python_lines(cell_source: str) -> list[str]:
    """The cell's lines without IPython's (``%magic``, ``!shell``, and their ``\\`` continuations)."""
    kept: list[str] = []
    continued = False
    for line in cell_source.splitlines():
        shell = continued or line.lstrip().startswith(("%", "!"))
        continued = shell and line.rstrip().endswith("\\")
        if not shell:
            kept.append(line)
    return kept


def _script(cell_source: str) -> str:
    """A cell as a script: IPython lines dropped, its last bare expression printed."""
    text = "\n".join(_python_lines(cell_source)) + "\n"
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    last = tree.body[-1] if tree.body else None
    if not isinstance(last, ast.Expr) or (
        isinstance(last.value, ast.Call) and isinstance(last.value.func, ast.Name) and last.value.func.id == "print"
    ):
        return text
    rows = text.splitlines()
    start, end = last.lineno - 1, last.end_lineno
    prefix = rows[start].encode()[: last.col_offset].decode()
    expression = ast.get_source_segment(text, last.value)
    return "\n".join([*rows[:start], f"{prefix}print({expression})", *rows[end:]]) + "\n"


def snippets(notebook: Path) -> list[Snippet]:
    """The notebook's TF1 snippets, each as one program with the set-up and the cells it needs.

    The set-up is the code under ``Setup`` headings and before the notebook's first
    other section heading (``Overview`` and the copyright line aside). A TF1 snippet is a section headed ``TensorFlow 1``/``TF1``/
    ``Before`` (all its cells), or, outside such sections and outside TF2 ones, one cell
    that calls ``tf1.``/``v1.``/``tf.compat.v1.`` (the guides that set TF1 and TF2 cells
    side by side) other than a test utility (``DeterministicRandomTestTool``, which the TF2
    cells use as well). The guides are read top to bottom, so a snippet also takes the earlier
    cells that bind the names it reads and write the files it reads (a class defined, a
    checkpoint saved, a cell or two before).
    """
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    setup: list[_Cell] = []
    code: list[_Cell] = []
    found: list[list[_Cell]] = []
    section: str | None = None  # "tf1" | "tf2" | "other"; None while in the set-up
    section_level = 0

    for index, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for heading in _headings(cell):
                level = _level(heading)
                if TF1_HEADING.match(heading):
                    section, section_level = "tf1", level
                    found.append([])
                elif TF2_HEADING.match(heading):
                    section, section_level = "tf2", level
                elif section in ("tf1", "tf2") and level > section_level:
                    continue
                elif SETUP_HEADING.match(heading):
                    section = None if heading.lstrip("# ").lower().startswith("setup") else section
                elif level >= 2:
                    section = "other"
            continue
        if cell["cell_type"] != "code" or source.startswith("#@title"):
            continue
        parsed = _cell(index, _script(source))
        if section is None:
            setup.append(parsed)
            continue
        code.append(parsed)
        if section == "tf1":
            found[-1].append(parsed)
        elif section == "other" and TF1_CALL.search(TEST_UTILITIES.sub("", source)):
            found.append([parsed])
    prelude = "".join(c.script for c in setup)
    given = frozenset().union(*(c.binds for c in setup))
    result = []
    for number, own in enumerate(found, 1):
        if any(c.script.strip() for c in own):
            program = [*_needed(own, code, given), *own]
            result.append(Snippet(f"{notebook.stem}#{number}", prelude + "".join(c.script for c in program),
                                  tuple(c.index for c in own)))
    return result


def _run(python: str, source: str, timeout: float, legacy_keras: bool = False) -> tuple[int | None, str, str]:
    """Run ``source`` as a script in a fresh folder; the TF 2.21 runs fork a warm interpreter."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "snippet.py"
        path.write_text(source, encoding="utf-8")
        try:
            done = tf_runner.run([python, str(path)], cwd=folder, timeout=timeout,
                                 env={**os.environ, **ENV, "HOME": folder,
                                      **({"TF_USE_LEGACY_KERAS": "1"} if legacy_keras else {})})
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {timeout:.0f} s"
    return done.returncode, done.stdout, done.stderr


def _last_error(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1][:160] if lines else ""


def _same_numbers(old: str, new: str) -> str | None:
    """None when ``new`` prints what ``old`` does, else where it first differs."""
    found = compare_stdout(old, new, Tolerance(), Stats(), [])
    return None if found is None else found.divergence.detail


def measure(snippet: Snippet, pythons: dict[str, str], timeout: float, keep: Path | None) -> Outcome:
    kind = next((k for pattern, k in REFEREES if k in pythons and pattern.search(snippet.source)), "tf2")
    referee, label, cells = pythons[kind], LABELS[kind], snippet.cells
    status, first, stderr = _run(referee, snippet.source, timeout, legacy_keras=kind == "keras2")
    stem = snippet.name.replace("#", "_")
    if keep is not None:
        (keep / f"{stem}.before.py").write_text(snippet.source, encoding="utf-8")
        (keep / f"{stem}.before.out").write_text(first + stderr, encoding="utf-8")
    if status != 0:
        return Outcome(snippet.name, "tf1 does not run", referee=label, detail=_last_error(stderr), cells=cells)
    _, second, _ = _run(referee, snippet.source, timeout, legacy_keras=kind == "keras2")
    deterministic = _same_numbers(first, second) is None
    try:
        result = rewrite_bytes(snippet.source.encode(), "snippet.py", RewriteConfig())
    except PROBLEM_TYPES as problem:
        return Outcome(snippet.name, "refused", referee=label, detail=problem_message(problem), cells=cells)
    code = result.code if isinstance(result.code, bytes) else result.code.encode()
    status, printed, stderr = _run(pythons["tf2"], code.decode(), timeout)
    if keep is not None:
        (keep / f"{stem}.after.py").write_bytes(code)
        (keep / f"{stem}.after.out").write_text(printed + stderr, encoding="utf-8")
    if status != 0:
        varies = "" if deterministic else " (and the original prints other numbers each run)"
        return Outcome(snippet.name, "crashes on 2.21", result.level, label, _last_error(stderr) + varies, cells)
    if not deterministic:
        return Outcome(snippet.name, "runs", result.level, label, "the original prints other numbers each run", cells)
    if not first.strip():
        return Outcome(snippet.name, "runs", result.level, label, "the original prints nothing", cells)
    difference = _same_numbers(first, printed)
    if difference is not None:
        return Outcome(snippet.name, "prints other numbers", result.level, label, difference[:160], cells)
    return Outcome(snippet.name, "prints the TF1 numbers", result.level, label, cells=cells)


ORDER = ["prints the TF1 numbers", "runs", "prints other numbers", "crashes on 2.21", "refused",
         "tf1 does not run"]


def table(outcomes: list[Outcome]) -> str:
    rows = ["| snippet | cells | TF1 runs on | level | outcome | detail |", "|---|---|---|---|---|---|"]
    for o in sorted(outcomes, key=lambda o: (ORDER.index(o.outcome), o.name)):
        cells = ", ".join(map(str, o.cells))
        rows.append(f"| {o.name} | {cells} | {o.referee} | {o.level} | {o.outcome} | {o.detail.replace('|', '/')} |")
    counted = [o for o in outcomes if o.outcome != "tf1 does not run"]
    summary = ", ".join(f"{sum(o.outcome == k for o in counted)} {k}" for k in ORDER[:-1])
    rows.append("")
    rows.append(f"{len(outcomes)} TF1 snippets, {len(counted)} whose original runs: {summary}.")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("guides", type=Path)
    parser.add_argument("--tf-python", required=True, help="a Python with TensorFlow 2.21")
    parser.add_argument("--tf1-python", help="a Python with a TensorFlow that still has tf.estimator")
    parser.add_argument("--keras2-python", help="a Python with TensorFlow 2.21 and tf_keras")
    parser.add_argument("--only", nargs="*", default=())
    parser.add_argument("--timeout", type=float, default=180)
    parser.add_argument("--keep", type=Path, help="write each snippet and its rewrite here")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    os.environ["TFMIGRATE_TF_PYTHON"] = args.tf_python  # the warm referee serves its runs
    pythons = {kind: python for kind, python in
               (("tf2", args.tf_python), ("tf1", args.tf1_python), ("keras2", args.keras2_python)) if python}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    outcomes = []
    for notebook in sorted(args.guides.glob("*.ipynb")):
        for snippet in snippets(notebook):
            if args.only and not any(part in snippet.name for part in args.only):
                continue
            outcome = measure(snippet, pythons, args.timeout, args.keep)
            print(f"{outcome.name} {outcome.cells}: {outcome.outcome} {outcome.detail}", file=sys.stderr, flush=True)
            outcomes.append(outcome)
    text = table(outcomes)
    print(text)
    if args.record:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        with RESULTS.open("a", encoding="utf-8") as out:
            out.write(f"\n### Migration guide snippets ({stamp})\n\n`python benchmarks/guide_pairs.py "
                      f"GUIDES --tf-python TF221 --tf1-python TF215 --keras2-python TF221_TF_KERAS`\n\n{text}\n")


if __name__ == "__main__":
    main()
