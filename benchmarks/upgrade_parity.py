"""API parity with tf_upgrade_v2: every input of its own test file, handled at least as well?

    python benchmarks/upgrade_parity.py TEST_FILE [--tf-python PYTHON] [--show KIND...]
        [--json OUT] [--record]

TEST_FILE is TensorFlow's ``tensorflow/tools/compatibility/tf_upgrade_v2_test.py`` (kept out
of this tree, e.g. in the git-ignored ``.realworld/``). Its test methods are run with an
``_upgrade`` that records each input (``parity_referee.py cases``, under the referee); every
distinct input is put after ``import tensorflow as tf`` (and the imports of the contrib
aliases it uses), upgraded by the real ``tf_upgrade_v2`` (the reference) and rewritten by
tfmigrate (``process.rewrite_bytes``, the code path of ``tfmigrate rewrite``). One referee
process then checks every output on TensorFlow 2.21 (``parity_referee.py check``): imports
succeed, ``tf.`` names resolve, calls bind to their signatures, and - where tf_upgrade_v2's
own output passes - each argument binds to the parameter it binds to there, with the same
value (a reordered or complemented argument that lands elsewhere changes the meaning).

Each case is then, in this order:

- **broken**: tfmigrate's output fails that check (also counted: how many carry no
  finding - the count that must be 0). A call that does not bind in tf_upgrade_v2's output
  either, or in the input spelled ``tf.compat.v1`` (TF1's own functions), for the same reason,
  is the test input's (a fragment like ``tf.metrics.auc(a, b)``), not counted;
- **same**: the same code as tf_upgrade_v2's output (as syntax trees);
- **better**: it passes, and tf_upgrade_v2's output does not, or keeps as many or more
  ``compat.v1`` names (equivalent counts here);
- **compat.v1 kept**: more ``compat.v1`` than tf_upgrade_v2, which keeps some too;
- **flagged**: otherwise behind tf_upgrade_v2 (more compat.v1, or left unchanged where it
  changed the code - unless TF 2.21 binds every call of both outputs alike), with a manual
  finding that says so;
- **worse**: the same without a finding.

An input that does not parse is the input's fault too: tfmigrate leaves it as it is, with the
parse error reported, where tf_upgrade_v2 writes an empty file (its output loses the code).
Beside the table: how many broken cases tf_upgrade_v2's own output passes the check in (the
count of inputs handled worse than tf_upgrade_v2, which must be 0).

``--show`` prints the cases of those kinds (``behind``: the broken ones tf_upgrade_v2 handles); ``--record`` appends the table to
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import ast
import json
import keyword
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrate.api import RewriteConfig
from migrate.process import PROBLEM_TYPES, problem_message, rewrite_bytes

REFEREE = ROOT / "benchmarks" / "parity_referee.py"
DEFAULT_TF_PYTHON = Path.home() / ".cache" / "tfmigrate-ci" / "tf221" / "bin" / "python"
KINDS = ("same", "better", "compat.v1 kept", "flagged", "worse", "broken")


def referee(python: str, mode: str, path: str, payload: object | None = None) -> object:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "in.json")
        out = Path(tmp, "out.json")
        if payload is not None:
            src.write_text(json.dumps(payload), encoding="utf-8")
        env = {**os.environ, "TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPP_MIN_LOG_LEVEL": "3"}
        subprocess.run([python, str(REFEREE), mode, path if payload is None else str(src), str(out)],
                       check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.loads(out.read_text(encoding="utf-8"))


def rewrite(source: str) -> dict:
    """tfmigrate's output and findings for one case, as `tfmigrate rewrite` would leave it."""
    try:
        result = rewrite_bytes(source.encode(), "case.py", RewriteConfig())
    except PROBLEM_TYPES as error:
        return {"output": source, "findings": [("refused", "manual", problem_message(error))]}
    code = result.code.decode() if isinstance(result.code, bytes) else result.code
    return {"output": code, "findings": [(f.rule, f.kind, f.message) for f in result.findings]}


def same_code(a: str, b: str) -> bool:
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except SyntaxError:
        return a == b


def as_tf1(source: str) -> str:
    """The input with every ``tf.`` name spelled ``tf.compat.v1.``: TF1's own functions, as TF
    2.21 keeps them, to tell a call no TensorFlow takes from one a rewrite broke."""
    return re.sub(r"\btf\.(?!compat\.)", "tf.compat.v1.", source)


def fails_alike(problem: str, ref_problems: list[str]) -> bool:
    """A call that fails to bind for the same reason in tf_upgrade_v2's output, or as the input
    stands against TF1's functions: the test's input is a fragment (``tf.metrics.mean_iou(a,
    b)``, ``tf.zeros_initializer(a, b)``) that no TensorFlow takes, not a call a rewrite broke.
    Code that does not parse, where the input does not either, is the input's."""
    if problem.startswith("does not parse"):
        return any(p.startswith("does not parse") for p in ref_problems)
    _, _, why = problem.partition(" does not bind: ")
    return bool(why) and any(p.endswith(f" does not bind: {why}") for p in ref_problems)


def lost_code(source: str, output: str) -> list[str]:
    """An output empty where the input has code (tf_upgrade_v2's answer to an input it cannot
    parse): nothing of the program is left to run."""
    return ["the output lost the input's code"] if source.strip() and not output.strip() else []


# String methods a literal argument may be written with (`("FAN" + "_AVG").lower()`).
_STR_METHODS = frozenset({"lower", "upper"})


def _literal_only(tree: ast.AST) -> bool:
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            if n.args or n.keywords or not (isinstance(n.func, ast.Attribute) and n.func.attr in _STR_METHODS):
                return False
        elif isinstance(n, ast.Attribute):
            if n.attr not in _STR_METHODS:
                return False
        elif isinstance(n, (ast.Name, ast.Subscript)):
            return False
    return True


def constant(source: str) -> object:
    """The value of an argument made of literals only (`'uniform' if False else 'gaussian'`,
    `'FAN_IN'.lower()`), else a marker that equals nothing but itself."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return object()
    if not _literal_only(tree):
        return object()
    try:
        return eval(compile(tree, "<arg>", "eval"), {"__builtins__": {}})  # literals and operators only
    except Exception:  # noqa: BLE001 - 1 / 0 and the like
        return object()


# Values tfmigrate writes otherwise than tf_upgrade_v2 on purpose, each as a formula of
# tf_upgrade_v2's value and the condition it holds under: contrib's truncated normal draws with
# stddev sqrt(1.3 * factor / n), Keras's VarianceScaling with sqrt(scale / n) / 0.8796..., so
# TF1's numbers take scale = 1.3 * factor * 0.8796 ** 2 where tf_upgrade_v2 writes scale = factor
# (a standard deviation 0.3% off).
TF1_NUMBERS: dict[tuple[str, str], tuple[Callable[[float], float], tuple[str, str]]] = {
    ("VarianceScaling", "scale"): (lambda factor: 1.3 * factor * 0.87962566103423978 ** 2,
                                   ("distribution", "truncated_normal")),
}


def tf1_number(call: dict, param: str, mine: object, ref: object) -> bool:
    """Our value is TF1's where tf_upgrade_v2's is not, by the formula of `TF1_NUMBERS`."""
    rule = TF1_NUMBERS.get((call["func"].rsplit(".", 1)[-1], param))
    if rule is None or not all(isinstance(v, (int, float)) for v in (mine, ref)):
        return False
    formula, (name, value) = rule
    given = call["args"].get(name)
    return given is not None and constant(given[1]) == value and math.isclose(mine, formula(ref))  # type: ignore[arg-type]


def meaning_changes(mine: list[dict], theirs: list[dict]) -> list[str]:
    """Arguments that bind elsewhere, or to other values, than in tf_upgrade_v2's output: the
    calls of one function are matched in order of appearance."""
    problems = []
    pending: dict[str, list[dict]] = {}
    for call in theirs:
        pending.setdefault(call["func"], []).append(call)
    for call in mine:
        queue = pending.get(call["func"])
        if not queue:
            continue
        ref = queue.pop(0)
        for param in call["args"].keys() & ref["args"].keys():
            (mine_dump, mine_src), (ref_dump, ref_src) = call["args"][param], ref["args"][param]
            mine_value, ref_value = constant(mine_src), constant(ref_src)
            if mine_dump != ref_dump and mine_value != ref_value and not tf1_number(call, param, mine_value, ref_value):
                problems.append(f"{call['text']}: {param}={mine_src}, tf_upgrade_v2 passes {param}={ref_src}")
        # where each name is passed there (`string_split(x, ' ', result_type=x)` passes one twice)
        where: dict[str, set[str]] = {}
        for p, (_, src) in ref["args"].items():
            if src.isidentifier() and not keyword.iskeyword(src):
                where.setdefault(src, set()).add(p)
        for param, (_, src) in call["args"].items():
            if src in where and param not in where[src]:
                theirs = ", ".join(sorted(where[src]))
                problems.append(f"{call['text']}: {src} binds to {param}, in tf_upgrade_v2's output to {theirs}")
    return sorted(set(problems))


def same_bindings(mine: list[dict], theirs: list[dict]) -> bool:
    """Every call of tf_upgrade_v2's output has one of the same name in ours (``tf.x`` for
    ``tf.compat.v1.x``), binding the same values to the same parameters."""
    pending = list(mine)
    for ref in theirs:
        tail = ref["text"].rsplit(".", 1)[-1]
        match = next((m for m in pending if m["text"].rsplit(".", 1)[-1] == tail), None)
        if match is None or {p: v[0] for p, v in match["args"].items()} != {p: v[0] for p, v in ref["args"].items()}:
            return False
        pending.remove(match)
    return bool(theirs)


def classify(case: dict) -> str:
    mine, ref = case["tfmigrate"], case["tf_upgrade_v2"]
    finding = any(kind == "manual" for _, kind, _ in mine["findings"])
    case["finding"] = finding
    if mine["problems"]:
        return "broken"
    if same_code(mine["output"], ref["output"]):
        return "same"
    ref_ok = not ref["problems"]
    # Left as written where tf_upgrade_v2 changed it: behind, unless TF 2.21 binds our calls
    # exactly as it binds tf_upgrade_v2's (`tf.initializers.orthogonal(a, b)` and its compat.v1).
    unchanged = (mine["output"] == case["source"] and ref["output"] != case["source"]
                 and not (ref_ok and same_bindings(mine["calls"], ref["calls"])))
    mine_compat, ref_compat = mine["output"].count("compat.v1"), ref["output"].count("compat.v1")
    if not ref_ok or (not unchanged and mine_compat <= ref_compat):
        return "better"
    if not unchanged and ref_compat:
        return "compat.v1 kept"
    return "flagged" if finding else "worse"


def measure(test_file: str, python: str) -> list[dict]:
    cases = referee(python, "cases", test_file)
    assert isinstance(cases, list)
    for case in cases:
        case["tfmigrate"] = rewrite(case["source"])
    sources = [c["tfmigrate"]["output"] for c in cases] + [c["tf_upgrade_v2"]["output"] for c in cases]
    sources += [as_tf1(c["source"]) for c in cases]
    checks = referee(python, "check", "", sources)
    assert isinstance(checks, list)
    n = len(cases)
    for case, mine, ref, tf1 in zip(cases, checks[:n], checks[n:2 * n], checks[2 * n:]):
        ref["problems"] = ref["problems"] + lost_code(case["source"], case["tf_upgrade_v2"]["output"])
        case["tf_upgrade_v2"].update(ref)
        case["tfmigrate"].update(mine)
        case["tfmigrate"]["problems"] = [p for p in mine["problems"]
                                         if not fails_alike(p, ref["problems"] + tf1["problems"])]
        if not ref["problems"]:
            case["tfmigrate"]["problems"] += meaning_changes(mine["calls"], ref["calls"])
        case["kind"] = classify(case)
    return cases


def table(cases: list[dict]) -> str:
    counts = Counter(c["kind"] for c in cases)
    silent = sum(1 for c in cases if c["kind"] == "broken" and not c["finding"])
    behind = len(behind_reference(cases))
    ref_broken = sum(1 for c in cases if c["tf_upgrade_v2"]["problems"])
    rows = ["| " + " | ".join((*KINDS, "broken without a finding", "tf_upgrade_v2 runs, ours broken", "cases"))
            + " |",
            "|" + "---:|" * (len(KINDS) + 3),
            "| " + " | ".join(str(counts[k]) for k in KINDS) + f" | {silent} | {behind} | {len(cases)} |"]
    return "\n".join(rows) + f"\n\ntf_upgrade_v2's own output fails the TF 2.21 check in {ref_broken} cases.\n"


def behind_reference(cases: list[dict]) -> list[dict]:
    """Broken cases whose tf_upgrade_v2 output passes the check: handled worse than it."""
    return [c for c in cases if c["kind"] == "broken" and not c["tf_upgrade_v2"]["problems"]]


def show(cases: list[dict], kinds: set[str]) -> None:
    behind = {id(c) for c in behind_reference(cases)} if "behind" in kinds else set()
    for case in cases:
        if case["kind"] not in kinds and id(case) not in behind:
            continue
        print(f"--- {case['kind']} ({case['method']}){'' if case['finding'] else ' no finding'}")
        print("in:   " + case["input"].strip().replace("\n", "\n      "))
        for label, side in (("ref: ", "tf_upgrade_v2"), ("ours:", "tfmigrate")):
            print(f"{label} " + case[side]["output"].strip().replace("\n", "\n      "))
        for problem in case["tfmigrate"]["problems"]:
            print(f"  ! {problem}")
        for rule, kind, message in case["tfmigrate"]["findings"]:
            if kind == "manual":
                print(f"  {rule} {message}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("test_file")
    parser.add_argument("--tf-python", default=os.environ.get("TFMIGRATE_TF_PYTHON", str(DEFAULT_TF_PYTHON)))
    parser.add_argument("--show", nargs="*", default=[], choices=(*KINDS, "behind"),
                        help="the cases of these kinds; behind: broken where tf_upgrade_v2's output passes")
    parser.add_argument("--json")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    cases = measure(args.test_file, args.tf_python)
    show(cases, set(args.show))
    text = table(cases)
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(cases, indent=1), encoding="utf-8")
    if args.record:
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=False).stdout.strip()
        with open(ROOT / "benchmarks" / "RESULTS.md", "a", encoding="utf-8") as out:
            out.write(f"\n## API parity with tf_upgrade_v2 ({stamp}, at `{commit}`)\n\n"
                      f"`python benchmarks/upgrade_parity.py .realworld/tf_upgrade_v2_test.py`\n\n{text}")


if __name__ == "__main__":
    main()
