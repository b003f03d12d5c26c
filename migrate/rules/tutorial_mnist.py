"""TF123: `input_data.read_data_sets` → a loader in the file over `tf.keras.datasets.mnist`.

TF 2.21 ships no `tensorflow.examples`, so a program importing the tutorial loader stops at its
first line. Tutorials use the loader one way: `mnist = input_data.read_data_sets(dir, one_hot=…)`,
then `mnist.train.next_batch(n)`, `.images`, `.labels`, `.num_examples`, often passed on to
functions. The rewrite keeps that interface: it defines `MnistSplit` and `Mnist` after the
imports, which read Keras's MNIST (the same images; validation is the first `validation_size`
training images, as in TF1) and serve them as TF1's DataSet did — pixels scaled to float32
[0, 1], images flattened unless `reshape=False`, float64 one-hot labels, batches shuffled each
epoch with numpy's global RNG. TF1's DataSet also reseeded numpy from the graph seed; where the
program sets one, the call passes it (`Mnist(..., seed=0)`) and the loader reseeds the same way.
Anything else (another use of the module, `fake_data`, a uint8 `dtype`, a graph seed set where
the rewrite cannot follow it) keeps the import, with a finding: such a file is not yet TF2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from ..codegen import code, copy_lines, record_line
from ..imports import Aliases
from ..op_seeds import SET_SEED_CALLS
from ..report import Finding
from ..walk import transform, walk
from . import Rule

RULE = Rule(
    id="TF123",
    name="tutorial-mnist-to-keras",
    summary="Load MNIST through tf.keras.datasets with input_data's interface (TF 2.21 has no tensorflow.examples).",
    doc=(
        "`from tensorflow.examples.tutorials.mnist import input_data` fails on TF 2.21. "
        "`input_data.read_data_sets(dir, one_hot=True)` becomes `Mnist(one_hot=True)`, a loader "
        "the rewrite defines in the file: it reads `tf.keras.datasets.mnist.load_data()` and serves "
        "`train`/`validation`/`test` with `images`, `labels`, `num_examples` and `next_batch` as "
        "TF1's DataSet did (same scaling, layout, one-hot labels and shuffling; numpy reseeded from "
        "the graph seed when the program sets one). The data comes from Keras's cache, not the "
        "directory the program named. Other uses of the module keep the import, with a finding."
    ),
    kind="auto",
)

MODULE = "examples.tutorials.mnist.input_data"
LOADER = f"{MODULE}.read_data_sets"
#: read_data_sets's parameters, in order.
PARAMS = ("train_dir", "fake_data", "one_hot", "dtype", "reshape", "validation_size", "seed", "source_url")
KEPT = ("one_hot", "reshape", "validation_size", "seed")
HELPER_NAMES = ("MnistSplit", "Mnist")

SPLIT_SOURCE = '''\
class MnistSplit:
    """One MNIST split as TF1's input_data served it: images, labels, num_examples, next_batch."""

    def __init__(self, images, labels, one_hot, reshape):
        count = len(images)
        images = images.reshape(count, 784) if reshape else images.reshape(count, 28, 28, 1)
        self.images = images.astype({np}.float32) * (1.0 / 255.0)
        self.labels = {np}.eye(10)[labels] if one_hot else labels
        self.num_examples = count
        self.epochs_completed = 0
        self._index = 0

    def next_batch(self, batch_size, shuffle=True):
        """The next examples; each epoch is shuffled with numpy's global RNG, as TF1's was."""
        start = self._index
        if self.epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self.num_examples:
            self._index = start + batch_size
            return self.images[start:self._index], self.labels[start:self._index]
        self.epochs_completed += 1
        rest_images, rest_labels = self.images[start:], self.labels[start:]
        if shuffle:
            self._shuffle()
        self._index = batch_size - len(rest_images)
        images = {np}.concatenate([rest_images, self.images[:self._index]])
        return images, {np}.concatenate([rest_labels, self.labels[:self._index]])

    def _shuffle(self):
        order = {np}.arange(self.num_examples)
        {np}.random.shuffle(order)
        self.images, self.labels = self.images[order], self.labels[order]
'''

MNIST_SOURCE = '''\
class Mnist:
    """MNIST split and scaled as TF1's input_data.read_data_sets did, from tf.keras.datasets."""

    def __init__(self, one_hot=False, reshape=True, validation_size=5000{seed_param}):
{reseed}        (images, labels), (test_images, test_labels) = {tf}.keras.datasets.mnist.load_data()
        split = validation_size
        self.train = MnistSplit(images[split:], labels[split:], one_hot, reshape)
        self.validation = MnistSplit(images[:split], labels[:split], one_hot, reshape)
        self.test = MnistSplit(test_images, test_labels, one_hot, reshape)
'''


@dataclass
class _Uses:
    imports: list[cst.SimpleStatementLine] = field(default_factory=list)
    calls: list[cst.Call] = field(default_factory=list)
    seeds: list[tuple[int, cst.Call]] = field(default_factory=list)  # (top-level index, call)
    resets: list[cst.Call] = field(default_factory=list)  # tf.reset_default_graph() calls
    numpy: str | None = None
    first_load: int = 0  # the top-level statement holding the first load
    blocker: str = ""

    def block(self, why: str) -> None:
        if not self.blocker:
            self.blocker = why


def _imports_loader(stmt: cst.CSTNode) -> bool:
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return False
    small = stmt.body[0]
    if isinstance(small, cst.ImportFrom) and small.module is not None:
        return code(small.module).startswith("tensorflow.examples.tutorials.mnist")
    if isinstance(small, cst.Import):
        return any(code(a.name).startswith("tensorflow.examples.tutorials.mnist") for a in small.names)
    return False


def numpy_name(module: cst.Module) -> str | None:
    """How the file names numpy, if it imports it at the top level."""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for a in small.names:
                        if code(a.name) == "numpy":
                            return a.asname.name.value if a.asname else "numpy"  # type: ignore[union-attr]
    return None


def _gather(module: cst.Module, aliases: Aliases) -> _Uses:
    uses = _Uses(numpy=numpy_name(module))
    for stmt in module.body:
        if _imports_loader(stmt):
            uses.imports.append(stmt)  # type: ignore[arg-type]
        elif not isinstance(stmt, cst.SimpleStatementLine):
            inner = next((n for n in walk(stmt) if isinstance(n, cst.SimpleStatementLine)
                          and _imports_loader(n)), None)
            if inner is not None:
                uses.imports.append(inner)
                uses.block("the loader is imported inside a block")
    bound = {name for name, path in {**aliases.modules, **aliases.symbols}.items()
             if path == MODULE or path == LOADER}
    loader_calls: set[int] = set()
    names: set[str] = set()
    for index, stmt in enumerate(module.body):
        if stmt in uses.imports:
            continue
        for node in walk(stmt):
            if isinstance(node, cst.Call):
                path = aliases.resolve(node.func)
                if path == LOADER:
                    uses.calls.append(node)
                    loader_calls.add(id(node.func))
                    for part in walk(node.func):
                        loader_calls.add(id(part))
                elif path in SET_SEED_CALLS or path == "random.set_seed":
                    uses.seeds.append((index, node))
                elif path == "reset_default_graph":
                    uses.resets.append(node)
            elif isinstance(node, cst.Name):
                names.add(node.value)
                if node.value in bound and id(node) not in loader_calls:
                    uses.block(f"{node.value} is used other than as {node.value}.read_data_sets(...)")
    if not uses.imports:
        return uses
    if len(uses.imports) > 1 or not bound:
        uses.block("the loader is imported in a way the rewrite does not follow")
    if taken := names & set(HELPER_NAMES):
        uses.block(f"the file binds {', '.join(sorted(taken))}, the loader's names")
    if uses.numpy is None and "np" in names:
        uses.block("np names something other than numpy here")
    if uses.calls:
        uses.first_load = min(i for i, stmt in enumerate(module.body) if any(c in uses.calls for c in _calls(stmt)))
        tf_import = next((i for i, stmt in enumerate(module.body) if _imports_tf(stmt)), None)
        if tf_import is None or tf_import > uses.first_load:
            uses.block("no `import tensorflow as tf` comes before MNIST is loaded")
    return uses


def _imports_tf(stmt: cst.BaseStatement) -> bool:
    """`import tensorflow as tf`, the name the loader's classes spell TensorFlow with."""
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Import) and any(
            code(a.name) == "tensorflow" and a.asname is not None and code(a.asname.name) == "tf"
            for a in small.names)
        for small in stmt.body)


def _arguments(call: cst.Call) -> dict[str, cst.Arg] | str:
    """read_data_sets's arguments by parameter, or why the call does not convert."""
    by_name: dict[str, cst.Arg] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return "its arguments are unpacked"
        name = arg.keyword.value if arg.keyword else (PARAMS[i] if i < len(PARAMS) else "")
        if name not in PARAMS:
            return f"it passes {name or 'an extra argument'}"
        by_name[name] = arg
    fake = by_name.get("fake_data")
    if fake is not None and code(fake.value) != "False":
        return "it asks for fake_data"
    dtype = by_name.get("dtype")
    if dtype is not None and not code(dtype.value).endswith("float32"):
        return f"it asks for dtype {code(dtype.value)}"
    return by_name


def _graph_seed(uses: _Uses, module: cst.Module) -> cst.BaseExpression | None | str:
    """The graph seed TF1's loader reseeded numpy with, or why it cannot be told."""
    if not uses.seeds:
        return None
    first_use = uses.first_load
    top_level = {id(stmt.body[0].value): i for i, stmt in enumerate(module.body)  # type: ignore[attr-defined]
                 if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Expr)}
    if len(uses.seeds) == 1 and id(uses.seeds[0][1]) not in top_level:
        return _seed_in_block(uses, module)
    if len(uses.seeds) > 1:
        return "the graph seed is set more than once"
    index, call = uses.seeds[0]
    if index > first_use:
        return None if isinstance(module.body[first_use], cst.SimpleStatementLine) else (
            "the graph seed is set after the function loading the data")
    if not call.args or not isinstance(call.args[0].value, (cst.Integer, cst.Name)):
        return "the graph seed is computed"
    return call.args[0].value


def _seed_in_block(uses: _Uses, module: cst.Module) -> cst.BaseExpression | str:
    """The graph seed set inside a block (``def main():``, ``if __name__ == "__main__":``)
    when every load follows it in that block, each a statement of its own: the graph the
    loader saw is the one seeded, whatever calls the block."""
    (_, call), = uses.seeds
    why = "the graph seed is set inside a block the data is not loaded in"
    for node in walk(module):
        if not isinstance(node, cst.IndentedBlock):
            continue
        body = node.body
        at = next((i for i, stmt in enumerate(body) if isinstance(stmt, cst.SimpleStatementLine)
                   and any(isinstance(small, cst.Expr) and small.value is call for small in stmt.body)), None)
        if at is None:
            continue
        loads = [i for i, stmt in enumerate(body) if isinstance(stmt, cst.SimpleStatementLine)
                 and any(c in uses.calls for c in _calls(stmt))]
        in_block = sum(1 for i in loads for c in _calls(body[i]) if c in uses.calls)
        if in_block != len(uses.calls) or min(loads) < at:
            return why
        if uses.resets:
            return "the default graph is reset, and its seed with it"
        if not call.args or not isinstance(call.args[0].value, cst.Integer):
            return "the graph seed is computed"
        return call.args[0].value
    return why


def _calls(stmt: cst.CSTNode) -> list[cst.Call]:
    return [n for n in walk(stmt) if isinstance(n, cst.Call)]


class _Replace(cst.CSTTransformer):
    def __init__(self, calls: dict[int, cst.Call]) -> None:
        self.calls = calls

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        return self.calls.get(id(original), updated)


def _converted(call: cst.Call, by_name: dict[str, cst.Arg], seed: cst.BaseExpression | None) -> cst.Call:
    args = [cst.Arg(by_name[name].value, keyword=cst.Name(name)) for name in KEPT if name in by_name]
    if seed is not None and "seed" not in by_name:
        args.append(cst.Arg(seed, keyword=cst.Name("seed")))
    args = [a.with_changes(equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                           comma=cst.MaybeSentinel.DEFAULT) for a in args]
    return call.with_changes(func=cst.Name("Mnist"), args=args)


def to_keras_mnist(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
) -> tuple[cst.Module, str, bool]:
    """(module, loader, blocked): loader calls replaced and the import dropped; `loader` asks
    for the helpers after the imports ("plain", or "seeded" when a call passes a seed);
    blocked means the import stays."""
    uses = _gather(module, aliases)
    if not uses.imports:
        return module, "", False
    line = lines.get(id(uses.imports[0]), 0)
    replaced: dict[int, cst.Call] = {}
    seed = _graph_seed(uses, module) if not uses.blocker else None
    if isinstance(seed, str):
        uses.block(f"{seed}, which TF1's loader reseeded numpy with")
    for call in uses.calls:
        by_name = _arguments(call)
        if isinstance(by_name, str):
            uses.block(f"read_data_sets(...) at line {lines.get(id(call), 0)}: {by_name}")
            continue
        new = _converted(call, by_name, seed if not isinstance(seed, str) else None)
        record_line(lines, new, lines.get(id(call), 0))
        replaced[id(call)] = new
    if uses.blocker:
        findings.append(Finding(RULE.id, line, 0, "tensorflow.examples.tutorials.mnist is not in TF 2.21 and "
                                f"is kept: {uses.blocker}; load MNIST with tf.keras.datasets.mnist.load_data()",
                                "manual"))
        return module, "", True
    if not uses.calls:
        findings.append(Finding(RULE.id, line, 0, "unused import of tensorflow.examples.tutorials.mnist "
                                "removed: TF 2.21 has none", "auto"))
    for call in uses.calls:
        findings.append(Finding(RULE.id, lines.get(id(call), 0), 0,
                                "input_data.read_data_sets → Mnist(...), defined in the file: TF 2.21 has no "
                                "tensorflow.examples; it reads tf.keras.datasets.mnist (Keras's cache, not the "
                                "directory named) and serves input_data's splits and next_batch", "auto"))
    body: list[cst.BaseStatement] = []
    carried: list[cst.EmptyLine] = []
    for stmt in module.body:
        if stmt in uses.imports:
            carried += [ln for ln in stmt.leading_lines if ln.comment is not None]
            trailing = stmt.trailing_whitespace.comment  # type: ignore[attr-defined]
            if trailing is not None:
                carried.append(cst.EmptyLine(comment=trailing))
            continue
        new = transform(stmt, _Replace(replaced)) if replaced else stmt
        if new is not stmt:
            copy_lines(stmt, new, lines)  # type: ignore[arg-type]
        if carried:
            new = new.with_changes(leading_lines=[*carried, *new.leading_lines])  # type: ignore[union-attr]
            carried = []
        body.append(new)  # type: ignore[arg-type]
    seeded = any(any(a.keyword is not None and a.keyword.value == "seed" for a in c.args) for c in replaced.values())
    return module.with_changes(body=body), ("seeded" if seeded else "plain") if uses.calls else "", False


RESEED = "        {np}.random.seed(seed)  # as TF1's loader did, with the graph seed\n"


def helpers(numpy: str, tf: str, seeded: bool) -> dict[str, str]:
    """The loader's classes, spelled with the file's numpy and TensorFlow names; `seeded`
    when a call passes the seed TF1's loader reseeded numpy with (else no such code)."""
    reseed = RESEED.format(np=numpy) if seeded else ""
    mnist = MNIST_SOURCE.format(np=numpy, tf=tf, seed_param=", seed=None" if seeded else "", reseed=reseed)
    return {"MnistSplit": SPLIT_SOURCE.format(np=numpy), "Mnist": mnist}
