"""Reach on real TF1 repositories: rewrite every TF file, classify it, rank why files fall back.

    python benchmarks/realworld.py REPO_DIR... [-j 2] [--ext py,ipynb]
        [--verify] [--tf-python PYTHON [--tf1-python PYTHON]] [--sample N] [--max-steps 20]
        [--timeout 60]

Each REPO_DIR is one repository's checkout (kept out of this tree: third-party code is
measured, never committed). Every file naming ``tensorflow`` that ``tfmigrate rewrite`` takes
(none under its default excludes, such as ``.ipynb_checkpoints``) goes through
``migrate.process.rewrite_bytes`` - the code path of ``tfmigrate rewrite --check`` - in a
process pool, and is classified *idiomatic*, *partial*, *untouched* or *failed* (with the
error). The reasons a file keeps TF1 graph semantics are taken from its TF190 findings,
with the names in them replaced by placeholders so one shape counts once per file.

A *self-contained script* runs a session and imports no module of its own repository.
``--verify`` verifies those with ``runtime.verdict`` (``--max-steps``); ``--tf-python``
runs each one's rewrite on that interpreter (a real TensorFlow 2), in a temporary copy of
its repository, and counts how it ends. ``--tf1-python`` (a TensorFlow with ``tf.compat.v1``)
then runs each original whose rewrite failed, under ``tf.compat.v1`` with v2 behaviour off: a
rewrite that fails with the original's last line, on something outside TensorFlow (a data
folder, a checkpoint, command-line arguments), counts as *fails as the original does*.
``--sample N`` limits both to N scripts (spread over the repositories, chosen by path order)
to keep the run cheap.
"""

from __future__ import annotations

import argparse
import ast
import collections
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate.api import RewriteConfig
from migrate.files import DEFAULT_EXCLUDES
from migrate.helper_code import helper_lines
from migrate.process import PROBLEM_TYPES, problem_message, rewrite_bytes
from migrate.programs import rewrite_tree

FALLBACK = "; the file keeps TF1 graph semantics under tf.compat.v1"
OUTSIDE = re.compile(r"^TF1 code outside the program model \((.*)\)$")
NO_FORM = re.compile(r"^(tf\.[\w.]+) has no TF2 form here")

#: Names in fallback messages, replaced so the same shape counts once.
PLACEHOLDERS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), r) for p, r in [
        (r"'[^']*'", "'<scope>'"),
        (r"\bgraph tensor (?!of\b)[\w.]+", "graph tensor <name>"),
        (r"^graph \w+ used", "graph <name> used"),
        (r"^session [\w.]+", "session <name>"),
        (r"^[\w.]+ (is bound again|is created from|calls|selects)", r"<name> \1"),
        (r"\bcalls (layer function )?[\w.]+", r"calls \1<fn>"),
        (r"\bfeeding [\w.]+", "feeding <name>"),
        (r"\bplaceholder [\w.]+ is not fed", "placeholder <name> is not fed"),
        (r"\bsummary \S+ under", "summary <tag> under"),
        (r"^[\w.]+\(\) called", "<fn>() called"),
        (r"\bvariables of [\w.]+\(\)", "variables of <fn>()"),
        (r"^class \w+", "class <name>"),
        (r"^calls of \w+", "calls of <fn>"),
        (r"^layer \w+ is configured from .*", "layer <attr> is configured per call"),
        (r"^a call of \w+", "a call of <fn>"),
        (r"^[\w.]+ (reads its scope|creates variables|takes a parameter)", r"<fn> \1"),
        (r"^\w+: ", "<fn>: "),
    ]
]


@dataclass
class FileOutcome:
    repo: str
    path: str
    level: str = ""  # idiomatic | partial | untouched | failed
    error: str = ""
    crash: bool = False  # an internal error, not a problem with the file
    unparseable: bool = False
    reasons: list[str] = field(default_factory=list)
    manual: list[str] = field(default_factory=list)  # what needs a person, where no fallback says why
    script: bool = False
    session_config: bool = False  # builds a ConfigProto / GPUOptions
    settled: bool = False  # untouched with no finding: TF2 or TF-agnostic code, nothing to change
    verdict: str = ""
    verdict_reason: str = ""  # why, for a verdict other than equivalent
    tf_run: str = ""
    tf_error: str = ""  # the last line a failed run printed
    code: bytes | None = None


def normalize(message: str) -> str:
    """A fallback message with its names replaced by placeholders."""
    for pattern, repl in PLACEHOLDERS:
        message = pattern.sub(repl, message)
    return message


def fallback_reasons(findings: list, level: str) -> list[str]:
    """Why a file is not idiomatic, one entry per distinct shape."""
    reasons: list[str] = []
    for f in findings:
        if f.rule != "TF190":
            continue
        if f.message.endswith(FALLBACK):
            text = f.message[: -len(FALLBACK)]
            outside = OUTSIDE.match(text)
            if outside:
                reasons += [f"TF1 code outside the program model: {n}" for n in outside.group(1).split(", ")]
            else:
                reasons.append(normalize(text))
    if not reasons and level == "partial":
        reasons = [f"{m.group(1)} has no TF2 form (no session in the file)"
                   for f in findings if f.rule == "TF190" and (m := NO_FORM.match(f.message))]
    return list(dict.fromkeys(reasons))


def manual_notes(findings: list) -> list[str]:
    """The distinct manual findings of a file, the first three: what `--files` shows for a file
    that did not fall back (kept as it was, each TF 2.21-less call named)."""
    return list(dict.fromkeys(f.message for f in findings if f.kind == "manual"))[:3]


def _local_modules(path: Path, repo: Path) -> set[str]:
    names = set()
    for folder in {path.parent, repo}:
        for child in folder.iterdir():
            if child.suffix == ".py":
                names.add(child.stem)
            elif child.is_dir():
                names.add(child.name)
    return names


def is_script(source: bytes, path: Path, repo: Path) -> bool:
    """Runs a session and imports nothing of its own repository."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    sessions = any(isinstance(n, ast.Attribute) and n.attr in ("Session", "InteractiveSession")
                   for n in ast.walk(tree))
    if not sessions:
        return False
    local = _local_modules(path, repo) - {"tensorflow", "numpy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                return False
            tops = [(node.module or "").split(".")[0]]
        else:
            continue
        if any(t in local for t in tops):
            return False
    return True


def rewrite_one(repo: str, repo_dir: str, path: str) -> FileOutcome:
    """One file through the rewriter (in a worker): its level, reasons, and the rewrite."""
    out = FileOutcome(repo, path)
    source = Path(path).read_bytes()
    out.script = path.endswith(".py") and is_script(source, Path(path), Path(repo_dir))
    out.session_config = b"ConfigProto" in source or b"GPUOptions" in source
    try:
        result = rewrite_bytes(source, path, RewriteConfig())
    except PROBLEM_TYPES as error:
        out.level, out.error = "failed", problem_message(error)
        return out
    except Exception as error:  # noqa: BLE001 - a crash is a result here
        out.level, out.crash = "failed", True
        out.error = f"{type(error).__name__}: {error}"[:200]
        return out
    out.level = result.level
    out.settled = result.level == "untouched" and not result.findings
    out.reasons = fallback_reasons(result.findings, result.level)
    out.manual = manual_notes(result.findings)
    code = result.code if isinstance(result.code, bytes) else result.code.encode()
    if result.changed and path.endswith(".py"):
        try:
            ast.parse(code)
        except SyntaxError:
            out.unparseable = True
    out.code = code
    return out


def programs_of(repo: str, repo_dir: str) -> list[FileOutcome]:
    """The repository's files that `tfmigrate rewrite` over its tree rewrites as programs of
    several files (a model module with its importers; notebooks count as importers)."""
    root = Path(repo_dir)
    sources = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.suffix in (".py", ".ipynb") and taken(root, p)}
    outcomes, _ = rewrite_tree(sources, RewriteConfig())
    found = []
    for path, outcome in outcomes.items():
        out = FileOutcome(repo, str(path), level=outcome.level, code=outcome.code.encode())
        out.settled = outcome.level == "untouched" and not outcome.findings
        out.reasons = fallback_reasons(outcome.findings, outcome.level)
        out.manual = manual_notes(outcome.findings)
        found.append(out)
    return found


def taken(repo: Path, path: Path) -> bool:
    """Whether `tfmigrate rewrite REPO` takes the file: it is under no default exclude (a
    notebook's `.ipynb_checkpoints` copies, `build`, virtualenvs)."""
    return path.is_file() and not any(fnmatch.fnmatch(part, pattern) for part in path.relative_to(repo).parts
                                      for pattern in DEFAULT_EXCLUDES)


def tf_files(repo: Path, exts: tuple[str, ...]) -> list[Path]:
    """The files naming TensorFlow that `tfmigrate rewrite REPO` takes."""
    return sorted(p for p in repo.rglob("*") if p.suffix in exts and taken(repo, p) and b"tensorflow" in p.read_bytes())


#: Keras's data sets come from the engine's synthetic ones (this machine has no network);
#: nothing else is provided, so `tensorflow.examples` still fails as on TF 2.21.
OFFLINE_KERAS = (
    "import runpy, sys\n"
    f"sys.path.insert(0, {str(ROOT)!r})\n"
    "from tests.synthetic_data import install\n"
    "install(tutorial_loader=False)\n"
    "sys.path.pop(0)\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


#: A TF1 original under TF 2's `tf.compat.v1`: `import tensorflow` gives that module.
AS_TF1 = (
    "import sys\n"
    "import tensorflow.compat.v1 as v1\n"
    "v1.disable_v2_behavior()\n"
    "sys.modules['tensorflow'] = v1\n"
) + OFFLINE_KERAS
AS_ORIGINAL = "fails as the original does"


def run_on_tf(python: str, repo: Path, outcomes: list[FileOutcome], timeout: float, tf1_python: str | None) -> None:
    """Run each rewrite in a temporary copy of its repository; record how it ends. With
    ``tf1_python``, the original of each failed rewrite runs too, to tell the rewrite's own
    failures from the original's."""
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3", MPLBACKEND="Agg")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / repo.name
        shutil.copytree(repo, copy)
        for out in outcomes:
            target = copy / Path(out.path).relative_to(repo)
            original = target.read_bytes()
            target.write_bytes(out.code or original)
            try:
                out.tf_run, out.tf_error = _run(python, OFFLINE_KERAS, target, env, timeout)
            finally:
                target.write_bytes(original)
            if out.tf_error and tf1_python:
                _, original_error = _run(tf1_python, AS_TF1, target, env, timeout)
                if original_error == out.tf_error and "tensorflow" not in out.tf_error.lower():
                    out.tf_run = AS_ORIGINAL


def _run(python: str, runner: str, target: Path, env: dict[str, str], timeout: float) -> tuple[str, str]:
    """How the script ends under ``runner``, run from its folder, and the last line it printed
    when it failed."""
    try:
        done = subprocess.run([python, "-c", runner, target.name], check=False, cwd=target.parent, env=env,
                              capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"still running at {timeout:g} s", ""
    if done.returncode == 0:
        return "runs", ""
    return failure_kind(done.stderr), last_line(done.stderr)


def last_line(stderr: bytes) -> str:
    return next((ln for ln in reversed(stderr.decode(errors="replace").splitlines()) if ln.strip()), "")


def failure_kind(stderr: bytes) -> str:
    kind = last_line(stderr).split(":")[0].strip().split(".")[-1]
    if kind in ("ImportError", "ModuleNotFoundError", "AttributeError", "NameError"):
        return "fails at import/name"
    if kind in ("FileNotFoundError", "OSError", "NotFoundError", "URLError", "HTTPError"):
        return "fails reading data"
    return f"fails ({kind or 'no message'})"


def verify_one(out: FileOutcome, max_steps: int, timeout: float) -> tuple[str, str]:
    """The verdict on a script and its rewrite, and its one-line reason."""
    from runtime.verdict import Options, verify_sources

    source = Path(out.path).read_text(encoding="utf-8", errors="replace")
    new = (out.code or b"").decode("utf-8", errors="replace") or source
    try:
        with tempfile.TemporaryDirectory() as workdir:
            verdict = verify_sources(source, new, Path(workdir),
                                     Options(max_steps=max_steps, timeout=timeout, vouched=helper_lines(new)),
                                     filename=Path(out.path).name)
        return verdict.status, verdict.reason
    except Exception as error:  # noqa: BLE001 - a crash of the verifier is a result here
        return f"verify crash ({type(error).__name__})", str(error)


def pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:.0f}% ({n})" if total else "-"


def report(outcomes: list[FileOutcome], repos: list[str], checked: list[FileOutcome], top: int) -> str:
    lines = [("| repository | TF files | idiomatic | partial | untouched | failed | crashes "
             "| unparseable | scripts | scripts idiomatic |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in [*repos, "total"]:
        rows = [o for o in outcomes if name in ("total", o.repo)]
        n = len(rows)
        levels = collections.Counter(o.level for o in rows)
        scripts = [o for o in rows if o.script]
        label = f"**{name}**" if name == "total" else name
        lines.append(
            f"| {label} | {n} | {pct(levels['idiomatic'], n)} | {pct(levels['partial'], n)} "
            f"| {pct(levels['untouched'], n)} | {pct(levels['failed'], n)} "
            f"| {sum(o.crash for o in rows)} | {sum(o.unparseable for o in rows)} | {len(scripts)} "
            f"| {pct(sum(o.level == 'idiomatic' for o in scripts), len(scripts))} |")
    settled = sum(o.settled for o in outcomes)
    idiomatic = sum(o.level == "idiomatic" for o in outcomes)
    lines += ["", (f"Untouched with no finding (TF2 or TF-agnostic code, nothing to change): {settled}; "
                   f"idiomatic among the other files: {pct(idiomatic, len(outcomes) - settled)}.")]
    configs = [o for o in outcomes if o.session_config]
    lines += ["", (f"Files building a session config (`ConfigProto`/`GPUOptions`): {len(configs)}, "
              f"idiomatic {pct(sum(o.level == 'idiomatic' for o in configs), len(configs))}.")]
    reasons = collections.Counter(r for o in outcomes for r in o.reasons)
    lines += ["", "| why files keep TF1 graph semantics (top) | files |", "|---|---:|"]
    lines += [f"| {r.replace('|', '/')} | {c} |" for r, c in reasons.most_common(top)]
    failed = [o for o in outcomes if o.level == "failed"]
    if failed:
        lines += ["", "| failed file | error |", "|---|---|"]
        lines += [f"| {Path(o.path).name} | {o.error.replace('|', '/')[:120]} |" for o in failed]
    for label, attr in (("verify", "verdict"), ("real TF", "tf_run")):
        counts = collections.Counter(getattr(o, attr) for o in checked if getattr(o, attr))
        if counts:
            n = sum(counts.values())
            lines += ["", f"| {label}: {n} scripts | scripts |", "|---|---:|"]
            lines += [f"| {k} | {pct(c, n)} |" for k, c in counts.most_common()]
    judged = [o for o in checked if o.verdict and o.verdict != "equivalent"]
    if judged:
        lines += ["", "| not equivalent | verdict | why |", "|---|---|---|"]
        lines += [f"| {Path(o.path).name} | {o.verdict} | {o.verdict_reason.replace('|', '/')[:160]} |" for o in judged]
    errors = [o for o in checked if o.tf_error]
    if errors:
        lines += ["", "| fails on real TF | last line | how |", "|---|---|---|"]
        lines += [f"| {Path(o.path).name} | {o.tf_error.replace('|', '/')[:140]} | {o.tf_run} |" for o in errors]
    return "\n".join(lines)


def file_list(outcomes: list[FileOutcome]) -> str:
    """One line per file not idiomatic: its level, path and the reasons it fell back."""
    rows = [o for o in outcomes if o.level != "idiomatic"]
    return "\n".join(f"{o.level:9} {o.path}: {'; '.join(o.reasons or o.manual) or o.error}" for o in rows)


def sample(scripts: list[FileOutcome], n: int | None) -> list[FileOutcome]:
    """Up to ``n`` scripts, taken in turn from each repository so every one is represented."""
    if n is None:
        return scripts
    by_repo: dict[str, list[FileOutcome]] = collections.defaultdict(list)
    for o in scripts:
        by_repo[o.repo].append(o)
    picked: list[FileOutcome] = []
    while len(picked) < min(n, len(scripts)):
        for rows in by_repo.values():
            if rows and len(picked) < n:
                picked.append(rows.pop(0))
    return picked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--ext", default="py", help="comma-separated suffixes (py,ipynb)")
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--tf-python")
    parser.add_argument("--tf1-python", help="runs the originals of failed rewrites under tf.compat.v1")
    parser.add_argument("--sample", type=int)
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--files", action="store_true", help="also list every file not idiomatic, with its reasons")
    args = parser.parse_args(argv)
    exts = tuple("." + e.strip(".") for e in args.ext.split(","))
    start = time.perf_counter()
    repos = [r.resolve() for r in args.repos]
    work = [(r.name, str(r), str(p)) for r in repos for p in tf_files(r, exts)]
    with ProcessPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(rewrite_one, *zip(*work), chunksize=4))
        together = {o.path: o for found in pool.map(programs_of, *zip(*[(r.name, str(r)) for r in repos]))
                    for o in found}
    for o in outcomes:
        if o.path in together:
            found = together[o.path]
            o.level, o.reasons, o.manual, o.code = found.level, found.reasons, found.manual, found.code
            o.settled = found.settled
    rewrite_wall = time.perf_counter() - start
    checked = sample([o for o in outcomes if o.script], args.sample)
    if args.verify:
        for o in checked:
            if o.level == "failed":  # no rewrite to compare: the file is left as it was
                o.verdict, o.verdict_reason = "not rewritten", o.error
                continue
            o.verdict, o.verdict_reason = verify_one(o, args.max_steps, args.timeout)
    if args.tf_python:
        for repo in repos:
            run_on_tf(args.tf_python, repo, [o for o in checked if o.repo == repo.name], args.timeout,
                      args.tf1_python)
    print(report(outcomes, [r.name for r in repos], checked, args.top))
    if args.files:
        print("\n" + file_list(outcomes))
    print(f"\n{len(outcomes)} files from {len(repos)} repositories; rewrite pass {rewrite_wall:.0f} s, "
          f"total {time.perf_counter() - start:.0f} s wall.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
