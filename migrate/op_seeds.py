"""Explicit op seeds on random ops, so TF2 draws what TF1's graph drew.

Under a graph-level seed (`tf.set_random_seed`), TF1 gives the n-th unseeded random op of the
graph the op seed n. Eager TF2 takes op seeds from a generator instead, and each tf.function
numbers its own ops from 0, so the same calls draw other numbers. Random calls therefore get
`seed=n` in graph order, for as long as every earlier random op of the graph is known: in
statements kept at the top level (variable initial values), in statements that move into step
functions (dropout, samplers), and in a graph-building function called once. nce_loss takes no
seed: its candidates come from an explicit sampler given the op seed. Once a statement may create
random ops the count cannot see (initializers, layers, an unseeded Dataset.shuffle), no more
seeds are added.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .codegen import copy_lines
from .imports import Aliases
from .rules.rnn_cells import cell_name
from .walk import children, walk

SET_SEED_CALLS = frozenset({"set_random_seed", "random.set_random_seed"})

# Random ops that ask the graph for one op seed per call (canonical TF1 paths) -> the
# position of their `seed` parameter.
RANDOM_OPS: dict[str, int] = {
    "random_normal": 4, "random_uniform": 4, "truncated_normal": 4, "random_shuffle": 1,
    "multinomial": 2, "random.normal": 4, "random.uniform": 4, "random.truncated_normal": 4,
    "random.shuffle": 1, "random.categorical": 3, "nn.dropout": 3, "random_crop": 2,
    "image.random_crop": 2, "image.random_flip_left_right": 1, "image.random_flip_up_down": 1,
    "image.random_brightness": 2, "image.random_contrast": 3, "image.random_hue": 2,
    "image.random_saturation": 3, "random_gamma": 4, "random.gamma": 4, "random_poisson": 3,
    "random.poisson": 3, "nn.log_uniform_candidate_sampler": 5, "nn.uniform_candidate_sampler": 5,
    "nn.learned_unigram_candidate_sampler": 5, "random.log_uniform_candidate_sampler": 5,
    "random.uniform_candidate_sampler": 5, "random.learned_unigram_candidate_sampler": 5,
    "nn.sampled_softmax_loss": 11,
}
# Sampled losses draw their candidates only when not given `sampled_values` (its position).
SAMPLED_VALUES = {"nn.sampled_softmax_loss": 7, "nn.nce_loss": 7}
# nce_loss draws with an op seed it takes no parameter for: TF1's is written into an explicit
# sampler, built as nce_loss builds it (labels as int64, unique log-uniform candidates).
NCE_SAMPLER = ("labels", "num_sampled", "num_classes", "num_true")
NCE_PARAMS = ("weights", "biases", "labels", "inputs", "num_sampled", "num_classes", "num_true")
# Other APIs that may take op seeds from the graph (initializers, layers).
SEED_USERS = ("get_variable", "layers.", "contrib.", "keras.", "random.stateless")
CONSTANT_INITS = ("zeros_initializer", "ones_initializer", "constant_initializer")


@dataclass
class OpSeeds:
    """The graph's op-seed counter while the program model can follow it."""

    next: int | None = None  # None: no graph-level seed yet, or the count is lost

    def start(self) -> None:
        self.next = 0

    def lose(self) -> None:
        self.next = None

    def seed(self, stmt: cst.CSTNode, calls: list[cst.Call], aliases: Aliases, lines: dict[int, int]) -> cst.CSTNode:
        """`stmt` with `seed=n` on each unseeded random call, numbered in graph order (the
        rebuilt nodes keep the source lines of the ones they replace)."""
        if self.next is None:
            return stmt
        numbered: dict[cst.Call, int] = {}
        repeated = _in_comprehensions(stmt)
        for call in _creation_order(stmt, calls):
            if not _draws_op_seed(call, aliases):
                continue
            if not _seedable(call, aliases) or id(call) in repeated:
                # a draw with TF1's next op seed that the rewrite cannot spell, or one a
                # comprehension repeats (TF1's loop built an op, with its own seed, per pass)
                self.lose()
                break
            numbered[call] = self.next
            self.next += 1
        if not numbered:
            return stmt

        class AddSeed(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
                if original not in numbered:
                    return updated
                if aliases.resolve(original.func) == "nn.nce_loss":
                    return _with_arg(updated, "sampled_values", _nce_sampler(updated, numbered[original]))
                return _with_arg(updated, "seed", cst.Integer(str(numbered[original])))

        seeded = stmt.visit(AddSeed())
        copy_lines(stmt, seeded, lines)
        return seeded


def _with_arg(call: cst.Call, keyword: str, value: cst.BaseExpression) -> cst.Call:
    args = list(call.args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    arg = cst.Arg(value, keyword=cst.Name(keyword),
                  equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
    return call.with_changes(args=[*args, arg])


def _nce_sampler(call: cst.Call, seed: int) -> cst.BaseExpression:
    """`tf.nn.log_uniform_candidate_sampler(...)` drawing nce_loss's candidates with op seed `seed`."""
    assert isinstance(call.func, cst.Attribute)
    module = cst.Module([]).code_for_node(call.func.value)  # `tf.nn`
    root = module.rsplit(".", 1)[0]
    bound = _bound(call, NCE_PARAMS)
    code = cst.Module([]).code_for_node
    num_true = code(bound["num_true"]) if "num_true" in bound else "1"
    return cst.parse_expression(
        f"{module}.log_uniform_candidate_sampler({root}.cast({code(bound['labels'])}, {root}.int64), "
        f"{num_true}, {code(bound['num_sampled'])}, True, {code(bound['num_classes'])}, seed={seed})"
    )


def _bound(call: cst.Call, params: tuple[str, ...]) -> dict[str, cst.BaseExpression]:
    bound = {p: a.value for p, a in zip(params, (a for a in call.args if a.keyword is None))}
    bound.update({a.keyword.value: a.value for a in call.args if a.keyword is not None})
    return bound


def _in_comprehensions(stmt: cst.CSTNode) -> set[int]:
    """Ids of the calls a comprehension in `stmt` makes once per element."""
    comprehensions = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)
    return {
        id(n) for c in walk(stmt) if isinstance(c, comprehensions)
        for n in walk(c) if isinstance(n, cst.Call)
    }


def _creation_order(stmt: cst.CSTNode, calls: list[cst.Call]) -> list[cst.Call]:
    """`calls` in the order they build ops: arguments before the call that takes them."""
    wanted = set(calls)
    order: list[cst.Call] = []

    def visit(node: cst.CSTNode) -> None:
        for child in children(node):
            visit(child)
        if isinstance(node, cst.Call) and node in wanted:
            order.append(node)

    visit(stmt)
    return order


def _draws_op_seed(call: cst.Call, aliases: Aliases) -> bool:
    """The call builds a random op that takes the graph's next op seed (no seed of its own)."""
    path = aliases.resolve(call.func) or ""
    if path not in RANDOM_OPS and path not in SAMPLED_VALUES:
        return False
    positional = [a for a in call.args if a.keyword is None]
    sampled = SAMPLED_VALUES.get(path)
    if sampled is not None and (len(positional) > sampled or _has_keyword(call, "sampled_values")):
        return False
    position = RANDOM_OPS.get(path)
    return position is None or len(positional) <= position and not _has_keyword(call, "seed")


def _seedable(call: cst.Call, aliases: Aliases) -> bool:
    if any(a.star for a in call.args):
        return False
    return aliases.resolve(call.func) != "nn.nce_loss" or _nce_seedable(call)


def _nce_seedable(call: cst.Call) -> bool:
    """nce_loss spelled `<tf>.nn.nce_loss` with its sampler's arguments at hand."""
    func = call.func
    chain = isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute) \
        and isinstance(func.value.value, cst.Name)
    return chain and all(p in _bound(call, NCE_PARAMS) for p in NCE_SAMPLER[:3])


def _has_keyword(call: cst.Call, keyword: str) -> bool:
    return any(a.keyword is not None and a.keyword.value == keyword for a in call.args)


def is_random(call: cst.Call, aliases: Aliases) -> bool:
    path = aliases.resolve(call.func)
    return path in RANDOM_OPS or path in SAMPLED_VALUES


def uncounted(call: cst.Call, aliases: Aliases) -> bool:
    """True when a call may take op seeds the count cannot number (`Dataset.shuffle` without a
    seed takes the graph's next one too)."""
    path = aliases.resolve(call.func)
    if path is None:
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
        positional = [a for a in call.args if a.keyword is None]
        return method == "shuffle" and len(positional) < 2 and not _has_keyword(call, "seed")
    if cell_name(path) is not None:
        return False  # a tf.contrib.rnn cell builds no op until an RNN loop runs it
    return path.startswith(SEED_USERS) or "initializer" in path and not path.startswith(CONSTANT_INITS)
