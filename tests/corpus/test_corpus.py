"""Fast checks on the TF1 corpus: it parses, its manifest is complete and its tags are true."""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import FEATURES, MINIMUM_COUNTS, STYLE_TARGETS, TARGETS, TOLERANCE, long_loop

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.py"))
MANIFEST = json.loads((CORPUS / "MANIFEST.json").read_text())


def dotted(node: ast.AST) -> str:
    """``tf.train.Saver`` for that attribute chain; '' for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Every dotted ``tf.*`` name used, and every dotted name that is called."""
    used, called = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            used.add(dotted(node))
        elif isinstance(node, ast.Call):
            called.add(dotted(node.func))
    return used, called


def observed_features(source: str) -> set[str]:
    """Features read from the syntax tree, independently of the recorder's regexes."""
    tree = ast.parse(source)
    used, called = names(tree)

    def prefix(p: str) -> bool:
        return any(u.startswith(p) for u in used)

    imports = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    found = {
        "placeholder": "tf.placeholder" in called,
        "variable_scope": "tf.variable_scope" in called,
        "tf_layers": prefix("tf.layers."),
        "summary": prefix("tf.summary."),
        "saver": "tf.train.Saver" in called,
        "contrib": prefix("tf.contrib."),
        "rnn": prefix("tf.nn.rnn_cell.") or prefix("tf.contrib.rnn.") or "tf.nn.dynamic_rnn" in called,
        "tf_data": prefix("tf.data."),
        "control_flow": bool({"tf.while_loop", "tf.cond"} & called),
        "mnist": "tensorflow.examples.tutorials.mnist" in imports,
        "session_minimize": bool({"tf.Session", "tf.InteractiveSession"} & called)
        and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr == "minimize" for n in ast.walk(tree)),
        "long_loop": long_loop(tree),
    }
    return {name for name, present in found.items() if present}


def observed_style(source: str) -> str:
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            methods = [n for n in node.body if isinstance(n, ast.FunctionDef)]
            runs = any(isinstance(c, ast.Call) and dotted(c.func).endswith("sess.run")
                       for m in methods for c in ast.walk(m))
            if runs:
                return "class"
    if any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
        return "library"
    return "script"


def test_corpus_is_large_enough():
    assert len(PROGRAMS) >= 60


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_parses_and_is_tf1(program: Path):
    source = program.read_text()
    compile(source, str(program), "exec")
    assert re.search(r"^import tensorflow as tf$", source, re.MULTILINE)
    assert "Session(" in source, "every corpus program runs a TF1 session"


def test_manifest_covers_every_program():
    assert set(MANIFEST) == {p.stem for p in PROGRAMS}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_tags_match_the_source(program: Path):
    entry = MANIFEST[program.stem]
    source = program.read_text()
    assert set(entry["features"]) <= set(FEATURES)
    assert set(entry["features"]) == observed_features(source)
    assert entry["style"] == observed_style(source)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_is_seeded(program: Path):
    """Random TF ops come with a graph seed; numpy's global RNG (and next_batch) with a seed."""
    source = program.read_text()
    tf_random = r"tf\.random|truncated_normal|dropout|get_variable\(|tf\.layers\.|tf\.contrib\.|nce_loss|sampled_softmax|rnn_cell"
    if re.search(tf_random, source):
        assert "tf.set_random_seed(" in source
    np_global = r"np\.random\.(rand|randn|randint|choice|uniform|normal|binomial|shuffle)\(|next_batch\((?![^)]*shuffle=False)"
    if re.search(np_global, source):
        assert "np.random.seed(" in source


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_real_tf_outcome_is_recorded(program: Path):
    entry = MANIFEST[program.stem]
    outcome = entry["real_tf"]
    assert "rc" in outcome and "stdout_head" in outcome
    if outcome["rc"] != 0:
        assert outcome["exception"]
    if "mnist" in entry["features"]:
        # TF 2.21 has no tutorial MNIST loader; the synthetic-loader run is recorded too
        assert outcome["rc"] != 0 and "ModuleNotFoundError" in outcome["exception"]
        assert "rc" in entry["real_tf_synthetic_mnist"]


# TF1 idioms that fail under compat.v1 for another reason than a removed module.
OTHER_REAL_TF_FAILURES = {
    # ``shape[1].value``: compat.v1 without disable_v2_behavior has int dimensions
    "cifar_like_cnn_scope": "AttributeError: 'int' object has no attribute 'value'",
}


def test_programs_without_removed_apis_run_on_real_tf():
    """tf.layers, tf.contrib and the rnn_cell classes are gone under Keras 3; the rest must run."""
    removed = {"tf_layers", "contrib", "rnn"}
    for name, entry in MANIFEST.items():
        outcome = entry.get("real_tf_synthetic_mnist") or entry["real_tf"]
        if name in OTHER_REAL_TF_FAILURES:
            assert outcome["exception"] == OTHER_REAL_TF_FAILURES[name]
        elif removed & set(entry["features"]):
            assert outcome["rc"] != 0 and "AttributeError" in outcome["exception"], name
        else:
            assert outcome["rc"] == 0, (name, outcome.get("exception"))


def test_distribution_meets_the_targets():
    n = len(MANIFEST)
    for feature in FEATURES:
        count = sum(feature in e["features"] for e in MANIFEST.values())
        if feature in TARGETS:
            assert abs(100.0 * count / n - TARGETS[feature]) <= TOLERANCE, feature
        else:
            assert count >= MINIMUM_COUNTS[feature], feature
    for style, target in STYLE_TARGETS.items():
        share = 100.0 * sum(e["style"] == style for e in MANIFEST.values()) / n
        assert abs(share - target) <= TOLERANCE, style
