"""TF121: under a graph seed, seed Python's `random` too, which Keras 3's initializers draw from.

TF1's `tf.set_random_seed(s)` made every initializer reproducible. Its TF2 spelling,
`tf.random.set_seed(s)`, does not reach Keras 3: a Keras initializer made without a seed takes
one from Python's `random` module, so a rewrite using Keras layers or initializers would draw
other start values on every run.
"""

from __future__ import annotations

import libcst as cst

from migrate.codegen import code, is_docstring
from migrate.report import Finding
from migrate.walk import transform, walk

from . import Rule

RULE = Rule(
    id="TF121",
    name="keras-initializer-seed",
    summary="Under tf.random.set_seed, also seed Python's random: Keras 3 initializers draw from it.",
    doc=(
        "A rewrite that uses Keras layers or initializers, of a program that set a graph seed "
        "(`tf.set_random_seed(s)`), follows `tf.random.set_seed(s)` with `random.seed(s)` and "
        "imports `random`: Keras 3 ignores TensorFlow's seed and seeds each unseeded initializer "
        "from Python's `random`, so without it the rewrite starts from other weights on every "
        "run where TF1 was reproducible. A module that already uses the name `random` keeps its "
        "stream; the rewrite reports the call to add instead."
    ),
    kind="auto",
)

SET_SEED = "tf.random.set_seed"


def _seed_calls(module: cst.Module) -> list[cst.SimpleStatementLine]:
    """Statements that are one `tf.random.set_seed(...)` call with one argument."""
    return [
        n for n in walk(module)
        if isinstance(n, cst.SimpleStatementLine) and len(n.body) == 1
        and isinstance(n.body[0], cst.Expr) and isinstance(call := n.body[0].value, cst.Call)
        and len(call.args) == 1 and call.args[0].keyword is None
        and isinstance(call.func, cst.Attribute) and call.func.attr.value == "set_seed"
        and code(call.func) == SET_SEED
    ]


# Keras names whose objects draw initial values (`keras.layers.Layer` subclasses' weights too).
KERAS_DRAWS = frozenset({"layers", "initializers", "Sequential", "Model", "models"})


def _draws_with_keras(node: cst.CSTNode) -> bool:
    """The code builds Keras layers or initializers (`tf.keras.layers.Dense`, ...)."""
    return any(
        isinstance(n, cst.Attribute) and n.attr.value in KERAS_DRAWS and _ends_in_keras(n.value)
        for n in walk(node)
    )


def _ends_in_keras(node: cst.BaseExpression) -> bool:
    """`keras`, `tf.keras`, `tensorflow.keras`: a name chain whose last part is `keras`."""
    last = node.attr if isinstance(node, cst.Attribute) else node
    return isinstance(last, cst.Name) and last.value == "keras"


def _first_draw(body: list[cst.BaseStatement], end: int) -> int | None:
    """Where a module-level statement before ``body[end]`` first creates Keras objects
    (`model = Model()`, placed after its class): their initializers took their seeds there."""
    keras_classes = {s.name.value for s in body if isinstance(s, cst.ClassDef) and _draws_with_keras(s)}
    for i, stmt in enumerate(body[:end]):
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            continue
        if _draws_with_keras(stmt) or any(
            isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in keras_classes
            for n in walk(stmt)
        ):
            return i
    return None


def _binds_random(module: cst.Module) -> bool:
    """The module names `random` itself (imports or binds it), not as a member (`np.random`)."""
    nodes = list(walk(module))
    members = {id(n.attr) for n in nodes if isinstance(n, cst.Attribute)}
    return any(isinstance(n, cst.Name) and n.value == "random" and id(n) not in members for n in nodes)


def _is_import(stmt: cst.BaseStatement) -> bool:
    """An import statement other than `from __future__` (which must stay first)."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom))):
        return False
    first = stmt.body[0]
    return not (isinstance(first, cst.ImportFrom) and isinstance(first.module, cst.Name)
                and first.module.value == "__future__")


class _AfterSeeds(cst.CSTTransformer):
    def __init__(self, seeds: list[cst.SimpleStatementLine]) -> None:
        self.seeds = {id(s) for s in seeds}

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if id(original_node) not in self.seeds:
            return updated_node
        call = updated_node.body[0].value  # type: ignore[attr-defined]
        seed = cst.parse_statement(f"random.seed({code(call.args[0].value)})\n")
        return cst.FlattenSentinel([updated_node, seed])


def seed_python_random(module: cst.Module, line: int, findings: list[Finding]) -> cst.Module:
    """`module` (a rewrite whose original set a graph seed at `line`) with Python's random seeded
    after each `tf.random.set_seed` call, when Keras draws its initial values."""
    seeds = _seed_calls(module)
    if not seeds or not _draws_with_keras(module):
        return module
    if _binds_random(module):
        findings.append(Finding(
            RULE.id, line, 0,
            "Keras 3 initializers ignore tf.random.set_seed and draw their seeds from Python's "
            "random, which this module uses itself: call random.seed(...) where it suits the "
            "module's own stream, or the rewrite's start values change from run to run", "manual",
        ))
        return module
    # A literal seed is given to Python's random before a module-level Keras object made ahead
    # of the seed call; any other seed stays where it is set.
    body = list(module.body)
    # Seeds at the module level, by position: one scan finds the first draw ahead of any.
    positions = {id(s): i for i, s in enumerate(body)}
    at_module = [positions[id(seed)] for seed in seeds if id(seed) in positions]
    first = _first_draw(body, max(at_module)) if at_module else None
    early: dict[int, str] = {}  # index of the first statement drawing ahead of it -> seed
    late = []
    for seed in seeds:
        at = first if first is not None and first < positions.get(id(seed), -1) else None
        argument = seed.body[0].value.args[0].value  # type: ignore[attr-defined]
        if at is not None and isinstance(argument, cst.Integer):
            early.setdefault(at, argument.value)
        else:
            late.append(seed)
    for at in sorted(early, reverse=True):
        stmt = body[at]
        body[at:at + 1] = [
            cst.parse_statement(f"random.seed({early[at]})\n").with_changes(leading_lines=stmt.leading_lines),
            stmt.with_changes(leading_lines=()),
        ]
    body = list(transform(module.with_changes(body=body), _AfterSeeds(late)).body)  # type: ignore[union-attr]
    at = next((i for i, s in enumerate(body) if _is_import(s)), None)
    if at is None:  # no import to join: after the docstring
        at = 1 if body and is_docstring(body[0]) else 0
    lead = body[at].leading_lines if at < len(body) else ()
    body[at:at] = [cst.parse_statement("import random\n").with_changes(leading_lines=lead)]
    if at + 1 < len(body):  # the standard library's import stands apart from the others
        gap = (cst.EmptyLine(),) if _is_import(body[at + 1]) else ()
        body[at + 1] = body[at + 1].with_changes(leading_lines=gap)
    findings.append(Finding(
        RULE.id, line, 0,
        "random.seed(...) added after tf.random.set_seed(...): Keras 3 initializers draw their "
        "seeds from Python's random, not from TensorFlow's seed", "fixed",
    ))
    return module.with_changes(body=body)
