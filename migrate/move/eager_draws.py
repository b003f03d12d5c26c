"""Random draws the rewrite runs eagerly that share an explicit op seed (TF102).

TF1 makes one graph op per random call; an op seeded `seed=1` starts its numbers over, so
`w1 = tf.Variable(tf.random_normal([2, 3], seed=1))` and `w2 = tf.Variable(tf.random_normal([3,
1], seed=1))` start alike. Eager TF2 runs every call of an op type with the same seed on one
cached kernel whose numbers go on from call to call: moved out of the graph as they are, `w2`
would start from other numbers. A seeded call in a loop is the same case (TF1 made an op per
pass), and so is one in a function or a constructor the rewrite runs eagerly (TF1 made an op
per call; `self.w1`, `self.w2` in `__init__`). In a tf.function each call is an op of its own
again, as in TF1, so each such later draw is made in a function of its own,
`tf.function(lambda: tf.random.normal(...))()`: a kernel that starts over, with the seeds
TF1's op had (checked on TF 2.21). A plain function only steps call is traced and keeps its
draws as they are.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import LineKeeping, code
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


class _EagerCode(cst.CSTVisitor):
    """A walk that knows whether a def runs traced: a tf.function step, or a method Keras runs
    where the layer is first called."""

    def __init__(self, move: MoveState) -> None:
        self.move = move
        self.classes = 0

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.classes += 1
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes -= 1

    def traced(self, node: cst.FunctionDef) -> bool:
        return bool(self.classes and node.name.value in _TRACED_METHODS) or is_tf_function(self.move.aliases, node)


class _EagerNames(_EagerCode):
    """The names eager code reads: everything but tf.function steps and traced methods."""

    def __init__(self, move: MoveState) -> None:
        super().__init__(move)
        self.definitions: set[int] = set()  # the names defs bind, which read nothing
        self.names: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.definitions.add(id(node.name))
        return not self.traced(node)

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) not in self.definitions:
            self.names.add(node.value)


class _Draws(_EagerCode):
    """Seeded random calls of eager code: the module's statements, the bodies of plain functions
    eager code calls, and methods such as `__init__` (not tf.function steps or what only they
    call, nor a layer's `build` and `call`, which run where it is first called)."""

    def __init__(self, move: MoveState, eager_names: set[str]) -> None:
        super().__init__(move)
        self.eager_names = eager_names
        self.loops = 0
        self.functions = 0  # enclosing defs: a function or method draws once per call
        self.found: list[tuple[str, str, cst.Call, str]] = []  # kernel, seed, call, where it may run again

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.functions += 1  # taken back on leaving, visited or not
        if self.traced(node):
            return False
        return self.classes > 0 or node.name.value in self.eager_names  # else only traced, or never called

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions -= 1

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
            where = "in a loop" if self.loops else "in a function, once per call," if self.functions else ""
            self.found.append((_KERNELS.get(path, path), code(seed), node, where))


class _Redraw(LineKeeping):
    """Each call of `calls` drawn in a function of its own; every rebuilt node keeps its line."""

    def __init__(self, calls: set[int], lines: dict[int, int]) -> None:
        self.calls = calls
        self.lines = lines

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if id(original_node) not in self.calls:
            return updated_node
        wrapper = cst.ensure_type(cst.parse_expression("tf.function(lambda: None)()"), cst.Call)
        function = cst.ensure_type(wrapper.func, cst.Call)
        draw = cst.ensure_type(function.args[0].value, cst.Lambda).with_changes(body=updated_node)
        return wrapper.with_changes(func=function.with_changes(args=[function.args[0].with_changes(value=draw)]))


def redraw_shared_seeds(move: MoveState, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """Each eager draw of the output that would go on from an earlier one's seeded kernel (or
    from its own, in a loop) drawn in a function of its own, whose op starts over as TF1's did."""
    module = cst.Module(body=body)
    eager = _EagerNames(move)
    module.visit(eager)
    draws = _Draws(move, eager.names)
    module.visit(draws)
    seen: set[tuple[str, str]] = set()
    again: set[int] = set()
    for kernel, seed, call, where in draws.found:
        if where or (kernel, seed) in seen:
            again.add(id(call))
            where = where or "again"
            move.fixed(SESSION_RULE.id, move.line(call) or move.line(move.module),
                       f"a random op seeded {seed} drawn {where} outside a step is drawn in a tf.function of its own: "
                       "eager TF2 goes on from the same kernel, where each TF1 graph op started over", "info")
        seen.add((kernel, seed))
    if not again:
        return body
    return list(module.visit(_Redraw(again, move.lines)).body)
