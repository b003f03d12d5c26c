"""The TensorFlow team's migration guides as a peer suite: their TF1 snippets, rewritten, on TF 2.21.

    python benchmarks/guide_pairs.py GUIDES_DIR --tf-python PY [--tf1-python PY215] [--keras2-python PY]
        [--only NAME ...] [--timeout 180] [--keep DIR] [--record]

GUIDES_DIR holds the notebooks of tensorflow/docs ``site/en/guide/migrate/`` (kept out of
this tree: peer material is measured, never committed). Each notebook is cut at its
markdown headings; a section headed ``TensorFlow 1``/``TF1``/``Before`` is one TF1 snippet,
run as a program made of the notebook's set-up cells (the code before its first TF1 or TF2
heading) and the section's cells. IPython lines (``%magic``, ``!shell``) are dropped and a
cell's last bare expression is printed, as the notebook shows it.

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
was), *crashes on 2.21*, *prints other numbers*, *runs* (nondeterministic original) or
*prints the TF1 numbers*. The table also gives the rewrite's level.
"""

from __future__ import annotations

import argparse
import ast
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
from runtime.compare import Tolerance, _Stats, compare_stdout
from tests import tf_runner

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
TF1_HEADING = re.compile(r"^#+\s*(TensorFlow 1\b|TF1\b|TF 1\b|Before\b)", re.IGNORECASE)
TF2_HEADING = re.compile(r"^#+\s*(TensorFlow 2\b|TF2\b|TF 2\b|After\b)", re.IGNORECASE)
SETUP_HEADING = re.compile(r"^#+\s*(Setup|Overview|Copyright)\b", re.IGNORECASE)
TF1_CALL = re.compile(r"\b(tf1|v1|tf\.compat\.v1)\.\w")
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


@dataclass
class Outcome:
    name: str
    outcome: str
    level: str = "-"
    referee: str = "-"
    detail: str = ""


def _headings(cell: dict) -> list[str]:
    return [line for line in "".join(cell["source"]).splitlines() if line.startswith("#")]


def _level(heading: str) -> int:
    return len(heading) - len(heading.lstrip("#"))


def _script(cell_source: str) -> str:
    """A cell as a script: IPython lines dropped, its last bare expression printed."""
    lines = [line for line in cell_source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    text = "\n".join(lines) + "\n"
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
    expression = "\n".join(rows[start:end])
    return "\n".join([*rows[:start], f"print({expression.strip()})", *rows[end:]]) + "\n"


def snippets(notebook: Path) -> list[Snippet]:
    """The notebook's TF1 snippets, each as one program with the set-up before it.

    The set-up is the code under ``Setup`` headings and before the notebook's first
    other section heading (``Overview`` and the copyright line aside). A TF1 snippet is a section headed ``TensorFlow 1``/``TF1``/
    ``Before`` (all its cells), or, outside such sections and outside TF2 ones, one cell
    that calls ``tf1.``/``v1.``/``tf.compat.v1.`` (the guides that set TF1 and TF2 cells
    side by side).
    """
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    setup: list[str] = []
    found: list[Snippet] = []
    section: str | None = None  # "tf1" | "tf2" | "other"; None while in the set-up
    section_level = 0

    def add(source: str) -> None:
        found.append(Snippet(f"{notebook.stem}#{len(found) + 1}", source))

    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for heading in _headings(cell):
                level = _level(heading)
                if TF1_HEADING.match(heading):
                    section, section_level = "tf1", level
                    add("")
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
        if section is None:
            setup.append(_script(source))
        elif section == "tf1":
            found[-1].source += _script(source)
        elif section == "other" and TF1_CALL.search(source):
            add(_script(source))
    prelude = "".join(setup)
    return [Snippet(s.name, prelude + s.source) for s in found if s.source.strip()]


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
    found = compare_stdout(old, new, Tolerance(), _Stats(), [])
    return None if found is None else found.divergence.detail


def measure(snippet: Snippet, pythons: dict[str, str], timeout: float, keep: Path | None) -> Outcome:
    kind = next((k for pattern, k in REFEREES if k in pythons and pattern.search(snippet.source)), "tf2")
    referee, label = pythons[kind], LABELS[kind]
    status, first, stderr = _run(referee, snippet.source, timeout, legacy_keras=kind == "keras2")
    if status != 0:
        return Outcome(snippet.name, "tf1 does not run", referee=label, detail=_last_error(stderr))
    _, second, _ = _run(referee, snippet.source, timeout, legacy_keras=kind == "keras2")
    deterministic = _same_numbers(first, second) is None
    try:
        result = rewrite_bytes(snippet.source.encode(), "snippet.py", RewriteConfig())
    except PROBLEM_TYPES as problem:
        return Outcome(snippet.name, "refused", referee=label, detail=problem_message(problem))
    code = result.code if isinstance(result.code, bytes) else result.code.encode()
    if keep is not None:
        stem = snippet.name.replace("#", "_")
        (keep / f"{stem}.before.py").write_text(snippet.source, encoding="utf-8")
        (keep / f"{stem}.after.py").write_bytes(code)
    status, printed, stderr = _run(pythons["tf2"], code.decode(), timeout)
    if status != 0:
        return Outcome(snippet.name, "crashes on 2.21", result.level, label, _last_error(stderr))
    if not deterministic:
        return Outcome(snippet.name, "runs", result.level, label, "the original prints other numbers each run")
    difference = _same_numbers(first, printed)
    if difference is not None:
        return Outcome(snippet.name, "prints other numbers", result.level, label, difference[:160])
    return Outcome(snippet.name, "prints the TF1 numbers", result.level, label)


ORDER = ["prints the TF1 numbers", "runs", "prints other numbers", "crashes on 2.21", "refused",
         "tf1 does not run"]


def table(outcomes: list[Outcome]) -> str:
    rows = ["| snippet | TF1 runs on | level | outcome | detail |", "|---|---|---|---|---|"]
    for o in sorted(outcomes, key=lambda o: (ORDER.index(o.outcome), o.name)):
        rows.append(f"| {o.name} | {o.referee} | {o.level} | {o.outcome} | {o.detail.replace('|', '/')} |")
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
            print(f"{outcome.name}: {outcome.outcome} {outcome.detail}", file=sys.stderr, flush=True)
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
