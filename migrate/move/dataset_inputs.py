"""Tensors a dataset is made from, computed eagerly where they stand.

`image = tf.cast(image, tf.string)` before `tf.data.Dataset.from_tensor_slices((image, label))`:
TF1 computed such tensors once, when the iterator started. Read by no placeholder, variable or
random op, they have that value when computed eagerly at their statement, which stays where it
is (in its notebook cell too); the steps read them as values made before.
"""

from __future__ import annotations

import libcst as cst

from ..graph import INSIDE, Node, calls_in, memoised_walk, names_read
from ..op_seeds import is_random
from ..report import Unsupported
from ..rules.data import RULE as DATA_RULE
from ..walk import walk
from .state import MoveState


def computed_here(move: MoveState, node: Node) -> bool:
    """Is this tensor one a dataset is made from (by name, through the statements binding
    what it reads), and computable now? It is then marked so: no step replays it."""
    if not set(node.names) & _dataset_reads(move):
        return False
    if (node.info.get("layer") or node.info.get("rnn") or node.info.get("valueless")
            or any(is_random(c, move.aliases) for c in calls_in(node.value))
            or not all(d.kind == "tensor" and d.info.get("eager") for d in node.deps)):
        return False
    node.info["eager"] = True
    move.sliced[id(node)] = None  # no step is made for it
    return True


def check_computed(move: MoveState, deps: list[Node], line: int) -> None:
    """A dataset made from graph tensors needs each computed where it stands."""
    for node in deps:
        if node.kind in INSIDE and not node.info.get("eager"):
            raise Unsupported(DATA_RULE.id, line, f"a dataset built from {node.name}, a graph tensor of a variable, "
                              "placeholder or random op")


def _dataset_reads(move: MoveState) -> frozenset[str]:
    """Names the module's tf.data calls read, and the names the statements binding those read."""

    def found(module: cst.Module) -> frozenset[str]:
        reads_of: dict[str, set[str]] = {}
        wanted: set[str] = set()
        for node in walk(module):
            if not isinstance(node, cst.Assign):
                continue
            read = {n.value for n in names_read(node.value)}
            for target in node.targets:
                for name in walk(target.target):
                    if isinstance(name, cst.Name):
                        reads_of.setdefault(name.value, set()).update(read)
            if any((move.aliases.resolve(c.func) or "").startswith("data.") for c in calls_in(node.value)):
                wanted |= read
        stack = list(wanted)
        while stack:
            for name in reads_of.get(stack.pop(), ()):
                if name not in wanted:
                    wanted.add(name)
                    stack.append(name)
        return frozenset(wanted)

    return memoised_walk("dataset reads", move.module, found)
