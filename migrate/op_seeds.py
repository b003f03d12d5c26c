"""Explicit op seeds on random initial values, so eager TF2 draws what TF1's graph drew.

Under a graph-level seed (`tf.set_random_seed`), TF1 gives the n-th unseeded random op of the
graph the op seed n. Eager TF2 takes op seeds from a generator instead, so the same calls start
the variables from other values. Random calls in statements kept at the top level (variable
initial values) therefore get `seed=n`, for as long as every earlier random op of the graph is
known; once a statement may create random ops the count cannot see, no more seeds are added.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .codegen import copy_lines
from .imports import Aliases

SET_SEED_CALLS = frozenset({"set_random_seed", "random.set_random_seed"})

# Random ops that ask the graph for one op seed per call (canonical TF1 paths) -> the
# position of their `seed` parameter.
RANDOM_OPS: dict[str, int] = {
    "random_normal": 4, "random_uniform": 4, "truncated_normal": 4, "random_shuffle": 1,
    "multinomial": 2, "random.normal": 4, "random.uniform": 4, "random.truncated_normal": 4,
    "random.shuffle": 1, "random.categorical": 3, "nn.sampled_softmax_loss": 11,
}
# Arguments that supply the values a random op would draw (no op is created then).
DRAWN_BY_CALLER = {"nn.sampled_softmax_loss": ("sampled_values", 7)}
# Other APIs that may take op seeds from the graph (initializers, dropout, layers).
SEED_USERS = ("get_variable", "nn.dropout", "layers.", "contrib.", "keras.", "random_gamma",
              "random_poisson", "random.gamma", "random.poisson", "random.stateless")
CONSTANT_INITS = ("zeros_initializer", "ones_initializer", "constant_initializer")


@dataclass
class OpSeeds:
    """The graph's op-seed counter while the program model can follow it."""

    next: int | None = None  # None: no graph-level seed yet, or the count is lost

    def start(self) -> None:
        self.next = 0

    def lose(self) -> None:
        self.next = None

    def count(self, calls: list[cst.Call], aliases: Aliases) -> None:
        """Random ops built by a statement that moves into a step function."""
        if self.next is not None:
            self.next += sum(1 for c in calls if _unseeded_random(c, aliases))

    def seed(self, stmt: cst.CSTNode, calls: list[cst.Call], aliases: Aliases, lines: dict[int, int]) -> cst.CSTNode:
        """`stmt` with `seed=n` on each unseeded random call, numbered in graph order (the
        rebuilt nodes keep the source lines of the ones they replace)."""
        if self.next is None:
            return stmt
        numbered: dict[cst.Call, int] = {}
        for call in calls:
            if _unseeded_random(call, aliases):
                numbered[call] = self.next
                self.next += 1
        if not numbered:
            return stmt

        class AddSeed(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
                if original not in numbered:
                    return updated
                args = list(updated.args)
                if args:
                    args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                seed = cst.Arg(cst.Integer(str(numbered[original])), keyword=cst.Name("seed"),
                               equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                return updated.with_changes(args=[*args, seed])

        seeded = stmt.visit(AddSeed())
        copy_lines(stmt, seeded, lines)
        return seeded


def _unseeded_random(call: cst.Call, aliases: Aliases) -> bool:
    path = aliases.resolve(call.func) or ""
    position = RANDOM_OPS.get(path)
    if position is None:
        return False
    positional = [a for a in call.args if a.keyword is None]
    if path in DRAWN_BY_CALLER:
        keyword, at = DRAWN_BY_CALLER[path]
        if len(positional) > at or any(a.keyword is not None and a.keyword.value == keyword for a in call.args):
            return False
    return len(positional) <= position and not any(
        a.star or a.keyword is not None and a.keyword.value == "seed" for a in call.args
    )


def is_random(call: cst.Call, aliases: Aliases) -> bool:
    return aliases.resolve(call.func) in RANDOM_OPS


def uncounted(call: cst.Call, aliases: Aliases) -> bool:
    """True when a call may take op seeds the count cannot number."""
    path = aliases.resolve(call.func)
    return path is not None and (
        path.startswith(SEED_USERS) or "initializer" in path and not path.startswith(CONSTANT_INITS)
    )
