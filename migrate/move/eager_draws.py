"""Random draws the rewrite runs eagerly that share an explicit op seed (TF102).

TF1 makes one graph op per random call; an op seeded `seed=1` starts its numbers over, so
`w1 = tf.Variable(tf.random_normal([2, 3], seed=1))` and `w2 = tf.Variable(tf.random_normal([3,
1], seed=1))` start alike. Eager TF2 runs every call of an op type with the same seed on one
cached kernel whose numbers go on from call to call: moved out of the graph as they are, `w2`
would start from other numbers. A seeded call in a loop is the same case (TF1 made an op per
pass), and so is one in a constructor the rewrite runs eagerly (`self.w1`, `self.w2` in
`__init__`). In a tf.function each call is an op of its own again, as in TF1. The code moves
all the same; the finding tells a person that those numbers are not TF1's (the file is partial).
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import call_args
from ..op_seeds import RANDOM_OPS
from ..rules.control_flow import is_tf_function
from ..rules.session import RULE as SESSION_RULE
from .state import MoveState

#: The kernel a random call runs on, by its TF2 or TF1 path (others: their own path).
_KERNELS = {
    "random.normal": "normal", "random_normal": "normal",
    "random.truncated_normal": "truncated_normal", "truncated_normal": "truncated_normal",
    "random.uniform": "uniform", "random_uniform": "uniform",
}


#: Methods Keras runs where a layer is first called, maybe while a step is traced.
_TRACED_METHODS = frozenset({"build", "call"})


class _Draws(cst.CSTVisitor):
    """Seeded random calls of eager code: the module's statements, plain functions' bodies and
    methods such as `__init__` (not tf.function steps, nor a layer's `build` and `call`, which
    run where it is first called)."""

    def __init__(self, move: MoveState) -> None:
        self.move = move
        self.loops = 0
        self.classes = 0
        self.found: list[tuple[str, str, cst.Call, bool]] = []  # kernel, seed, call, in a loop

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.classes += 1
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.classes and node.name.value in _TRACED_METHODS:
            return False
        return not is_tf_function(self.move.aliases, node)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False  # an initializer: called where its layer is built

    def _enter(self, _: cst.CSTNode) -> bool:
        self.loops += 1
        return True

    def _leave(self, _: cst.CSTNode) -> None:
        self.loops -= 1

    visit_For = visit_While = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _enter
    leave_For = leave_While = leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave

    def visit_Call(self, node: cst.Call) -> None:
        path = self.move.aliases.resolve(node.func)
        if path not in RANDOM_OPS:
            return
        params = tuple(f"_{i}" for i in range(RANDOM_OPS[path])) + ("seed",)
        seed = call_args(node, params).get("seed")
        if seed is not None and not (isinstance(seed, cst.Name) and seed.value == "None"):
            self.found.append((_KERNELS.get(path, path), code(seed), node, self.loops > 0))


def check_shared_seeds(move: MoveState, body: list[cst.BaseStatement]) -> None:
    """A finding for a person (the file is then partial) at each eager draw of the output
    that goes on from an earlier one's seeded kernel: its numbers are not TF1's."""
    draws = _Draws(move)
    cst.Module(body=body).visit(draws)
    seen: set[tuple[str, str]] = set()
    for kernel, seed, call, looped in draws.found:
        if looped or (kernel, seed) in seen:
            where = "in a loop" if looped else "again"
            move.fixed(SESSION_RULE.id, move.line(call) or move.line(move.module),
                       f"a random op seeded {seed} drawn {where} outside a step draws other numbers than TF1's: eager "
                       "TF2 goes on from the same kernel, where each TF1 graph op started over", "manual")
        seen.add((kernel, seed))
