"""A step that computes what another step returns calls it, instead of repeating its code.

TF1 run sites fetch the same tensors for training and for reporting, so the steps the rewrite
makes repeat the forward pass: `train_step` computes `loss` inside its tape, and
`compute_loss` computes it again to return it. When the statements of a value step (no tape,
one `return`) appear in order in another step, with the same spelling and over names that step
has, they become one call: `loss = compute_loss(x, y)`. Statements that draw random numbers
stay where they are (moving them would change which op seed they get).
"""

from __future__ import annotations

import libcst as cst

from .codegen import code
from .graph import calls_in, names_read
from .imports import Aliases
from .op_seeds import is_random
from .scope_reads import bound_names
from .walk import walk

#: Graph control flow the rewrite turns into Python control flow later: left in its step.
_CONTROL_FLOW = frozenset({"while_loop", "cond", "case", "switch_case", "map_fn", "scan", "foldl", "foldr"})


def _body(fn: cst.FunctionDef) -> list[cst.BaseStatement]:
    return list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else []


def _returned(stmt: cst.BaseStatement) -> list[str] | None:
    """`return loss` → ['loss'], `return [a, b]` → ['a', 'b'], else None."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Return)):
        return None
    value = stmt.body[0].value
    if isinstance(value, cst.Name):
        return [value.value]
    if isinstance(value, (cst.List, cst.Tuple)) and value.elements and all(isinstance(e.value, cst.Name) for e in value.elements):
        return [e.value.value for e in value.elements]  # type: ignore[attr-defined]
    return None


def _simple(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, cst.Assign) for s in stmt.body)


class _Value:
    """A value step: its parameters, the statements before its return, and what it returns."""

    def __init__(self, fn: cst.FunctionDef, aliases: Aliases) -> None:
        self.fn = fn
        body = _body(fn)
        self.returned = _returned(body[-1]) if body else None
        self.stmts = body[:-1]
        self.params = [p.name.value for p in fn.params.params]
        calls = [c for s in self.stmts for c in calls_in(s)]
        bound = set().union(*(bound_names(s) for s in self.stmts))
        self.usable = (
            self.returned is not None and bool(self.stmts) and set(self.returned) <= bound
            and not isinstance(fn.params.star_arg, cst.Param) and not fn.params.kwonly_params
            and fn.params.star_kwarg is None and all(_simple(s) for s in self.stmts)
            and not any(is_random(c, aliases) or aliases.resolve(c.func) in _CONTROL_FLOW for c in calls)
            and not any(isinstance(n, cst.Lambda) for s in self.stmts for n in walk(s))
        )
        self.codes = [code(s).strip() for s in self.stmts]

    def call(self) -> cst.BaseStatement:
        targets = ", ".join(self.returned or [])
        return cst.parse_statement(f"{targets} = {self.fn.name.value}({', '.join(self.params)})\n")


def _shared(
    block: list[cst.BaseStatement], value: _Value, params: set[str], after: list[cst.BaseStatement] = (),
) -> list[cst.BaseStatement] | None:
    """`block` with `value`'s statements replaced by its call, or None when they are not there
    as a run, read names the block lacks, or bind names read later (in the block, or in the
    statements `after` it) that it does not return."""
    codes = [code(s).strip() for s in block]
    n = len(value.codes)
    for start in range(len(block) - n + 1):
        if codes[start:start + n] != value.codes:
            continue
        if not set(value.params) <= params:
            return None
        bound = set().union(*(bound_names(s) for s in block[start:start + n]))
        later = {name.value for s in [*block[start + n:], *after] for name in names_read(s)}
        if (bound & later) - set(value.returned or []):
            return None
        call = value.call().with_changes(leading_lines=block[start].leading_lines)
        return [*block[:start], call, *block[start + n:]]
    return None


def _tape_block(body: list[cst.BaseStatement]) -> list[cst.BaseStatement] | None:
    """The statements of a step's leading `with tf.GradientTape() ...:` block, if it has one."""
    if body and isinstance(body[0], cst.With) and isinstance(body[0].body, cst.IndentedBlock):
        return list(body[0].body.body)
    return None


def _with_calls(fn: cst.FunctionDef, candidates: list[_Value], calls: dict[str, set[str]]) -> cst.FunctionDef:
    params = {p.name.value for p in fn.params.params}
    body = _body(fn)
    name = fn.name.value
    for value in candidates:
        callee = value.fn.name.value
        if callee == name or name in _reached(callee, calls):
            continue  # a step never calls itself, through others either
        new = _shared(body, value, params)
        tape = _tape_block(body)
        if new is None and tape is not None:
            inner = _shared(tape, value, params, body[1:])
            if inner is not None:
                new = [body[0].with_changes(body=body[0].body.with_changes(body=inner)), *body[1:]]
        if new is not None:
            body = new
            calls.setdefault(name, set()).add(callee)
    return fn.with_changes(body=fn.body.with_changes(body=body))  # type: ignore[union-attr]


def _reached(name: str, calls: dict[str, set[str]]) -> set[str]:
    """The steps `name` calls, directly or through others."""
    seen: set[str] = set()
    stack = [name]
    while stack:
        for callee in calls.get(stack.pop(), ()):
            if callee not in seen:
                seen.add(callee)
                stack.append(callee)
    return seen


def share_steps(functions: list[cst.FunctionDef], aliases: Aliases) -> list[cst.FunctionDef]:
    """The step functions with each value step's code, where another repeats it, a call.

    A step is only compared with the value steps whose first statement it holds, so a module
    of thousands of steps costs what its steps do, not their pairs."""
    values = sorted((v for f in functions if (v := _Value(f, aliases)).usable),
                    key=lambda v: -len(v.stmts))  # the biggest shared run first
    if not values:
        return functions
    by_first: dict[str, list[int]] = {}
    for rank, value in enumerate(values):
        by_first.setdefault(value.codes[0], []).append(rank)
    calls: dict[str, set[str]] = {}
    out = []
    for fn in functions:
        body = _body(fn)
        held = {code(s).strip() for s in [*body, *(_tape_block(body) or [])]}
        ranks = sorted(r for first in held for r in by_first.get(first, ()))
        out.append(_with_calls(fn, [values[r] for r in ranks], calls) if ranks else fn)
    return out
