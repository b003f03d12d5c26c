"""The forward pass defined once: statements several steps begin with become one function.

A program whose session ran the same graph values from several run sites (`train_op` and
`accuracy`, both reading `logits`) gets one `tf.function` per run site, and each computes
`logits = tf.matmul(X, W) + b` again. A person writes that computation once
(`def forward(X): ...`) and calls it from each step; tracing a plain Python function inside a
`tf.function` (or a tape) records the same ops, so the steps compute what they did.

Only a shared *leading* run of plain assignments moves (the statements a step starts with,
or starts its tape with), reading the steps' own parameters by the same names and module
values: all the steps share when that can be one function (the forward pass and the loss on
it, `compute_loss(x, y)`), else the forward pass alone (what reads only the inputs). Statements
that draw random numbers stay in each step, since moving them could change which draws a step
makes.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .codegen import code
from .walk import walk

#: Text in a statement that makes it stay where it is (it draws random numbers, or reads a tape).
_STAYS = ("random", "dropout", "tape", "Dropout", "sample")


def _is_step(stmt: cst.BaseStatement) -> bool:
    if not isinstance(stmt, cst.FunctionDef):
        return False
    for decorator in stmt.decorators:
        target = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        if code(target) == "tf.function":
            return True
    return False


def _is_tape(stmt: cst.BaseStatement) -> bool:
    return (isinstance(stmt, cst.With) and len(stmt.items) == 1
            and code(stmt.items[0].item).startswith("tf.GradientTape("))


def _assigned(stmt: cst.BaseStatement) -> str | None:
    """The one name a plain `name = value` statement binds."""
    if (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)):
        return stmt.body[0].targets[0].target.value
    return None


def _key(stmt: cst.BaseStatement) -> str:
    return code(stmt.with_changes(leading_lines=()))


@dataclass
class _Step:
    index: int  # in the module body
    func: cst.FunctionDef
    in_tape: bool  # the leading statements are the tape's
    lead: list[cst.BaseStatement]  # the leading plain assignments

    @property
    def params(self) -> list[str]:
        return [p.name.value for p in self.func.params.params]

    def rest(self, count: int) -> list[cst.BaseStatement]:
        """The statements after the first `count` leading ones (and after the tape)."""
        after_tape = list(self.func.body.body)[1:] if self.in_tape else []  # type: ignore[union-attr]
        return [*self.block()[count:], *after_tape]

    def block(self) -> list[cst.BaseStatement]:
        body = list(self.func.body.body)  # type: ignore[union-attr]
        return list(body[0].body.body) if self.in_tape else body  # type: ignore[attr-defined]


def _step(index: int, func: cst.FunctionDef) -> _Step:
    body = list(func.body.body)  # type: ignore[union-attr]
    in_tape = bool(body) and _is_tape(body[0])
    block = list(body[0].body.body) if in_tape else body  # type: ignore[attr-defined]
    lead = []
    for stmt in block:
        if _assigned(stmt) is None:
            break
        lead.append(stmt)
    return _Step(index, func, in_tape, lead)


def _calls_defined(stmt: cst.BaseStatement) -> bool:
    """`fake = generator(z)`: a call of the file's own function or model on plain values,
    which each step already calls once rather than copying."""
    value = stmt.body[0].value  # type: ignore[attr-defined]
    if not isinstance(value, cst.Call):
        return False
    root = value.func
    while isinstance(root, cst.Attribute):
        root = root.value
    return (isinstance(root, cst.Name) and root.value not in ("tf", "np")
            and all(isinstance(a.value, (cst.Name, cst.Integer, cst.Float, cst.SimpleString)) for a in value.args))


def _names(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


def _reads_after(stmts: list[cst.BaseStatement]) -> set[str]:
    return set().union(*(_names(s) for s in stmts)) if stmts else set()


def _shared(steps: list[_Step], forward_only: bool) -> int:
    """How many leading statements all `steps` share, as text; with `forward_only`, reading
    no parameter the first does not: the forward pass reads the model's inputs, the loss
    after it reads the labels."""
    inputs = _names(steps[0].lead[0]) & set(steps[0].params)
    count = 0
    while (all(len(s.lead) > count for s in steps) and len({_key(s.lead[count]) for s in steps}) == 1
           and (not forward_only or _names(steps[0].lead[count]) & set(steps[0].params) <= inputs)):
        count += 1
    return count


#: Words in a value's name that say it is a loss, not the model's output.
_LOSS_WORDS = ("loss", "cost", "mse", "err", "entropy")


def _fresh(taken: set[str], outputs: list[str], forward: bool) -> str | None:
    """`forward` for the model's output from its inputs; `compute_<value>` for a loss, for
    what reads more than the inputs (the labels), or for a value computed from no input
    (`compute_initial_state()`); never a name in use."""
    computed = [f"compute_{o}" for o in outputs[-1:]]
    loss = any(word in outputs[-1].lower() for word in _LOSS_WORDS)
    for name in (computed if loss or not forward else ["forward", *computed]):
        if name not in taken:
            return name
    return None


def share_forward(module: cst.Module) -> cst.Module:
    """The module with each run of leading statements that several steps of one block repeat
    defined once in that block: the module's own steps, and those nested in a function or in
    a class's `__init__` (each a closure over what it reads there)."""
    return module.visit(_Blocks(_names(module)))


class _Blocks(cst.CSTTransformer):
    """Shares the forward pass of the steps in the module body and in every indented block."""

    def __init__(self, taken: set[str]) -> None:
        super().__init__()
        self.taken = taken

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        body = _shared_in(list(updated.body), self.taken, gap=1)
        return updated if body is None else updated.with_changes(body=body)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = _shared_in(list(updated.body), self.taken, gap=2)
        return updated if body is None else updated.with_changes(body=body)


def _shared_in(body: list[cst.BaseStatement], taken: set[str], gap: int) -> list[cst.BaseStatement] | None:
    """The statements of one block with its steps' shared leading statements defined once, as
    a function above the first of them; None when no steps share any."""
    steps = [_step(i, s) for i, s in enumerate(body) if _is_step(s)]
    groups: dict[str, list[_Step]] = {}
    for step in steps:
        if step.lead:
            groups.setdefault(_key(step.lead[0]), []).append(step)
    helpers: dict[int, cst.FunctionDef] = {}  # body index -> the helper defined before it
    for group in (g for g in groups.values() if len(g) > 1):
        made = _helper(group, taken)
        if made is None:
            continue
        helper, calls, count = made
        taken.add(helper.name.value)
        helpers[group[0].index] = helper
        for step, call in zip(group, calls):
            body[step.index] = _replaced(step, call, count)
    if not helpers:
        return None
    out: list[cst.BaseStatement] = []
    for i, stmt in enumerate(body):
        if i in helpers:
            out.append(helpers[i].with_changes(leading_lines=stmt.leading_lines))
            stmt = stmt.with_changes(leading_lines=[cst.EmptyLine(indent=False) for _ in range(gap)])
        out.append(stmt)
    return out


def _helper(group: list[_Step], taken: set[str]) -> tuple[cst.FunctionDef, list[cst.BaseStatement], int] | None:
    """The function the group's shared statements become, each step's call of it, and how
    many leading statements of each step the call replaces: all they share (the forward pass
    and the loss on it), else the forward pass alone."""
    forward = _shared(group, True)
    for count in dict.fromkeys((_shared(group, False), forward)):
        made = _helper_of(group, taken, count, count == forward)
        if made is not None:
            return made
    return None


def _helper_of(group: list[_Step], taken: set[str], count: int,
               forward: bool) -> tuple[cst.FunctionDef, list[cst.BaseStatement], int] | None:
    lead = group[0].lead[:count]
    if not lead or any(word in _key(s) for s in lead for word in _STAYS) or all(map(_calls_defined, lead)):
        return None
    bound = [_assigned(s) for s in lead]
    later = set().union(*(_reads_after(s.rest(count)) for s in group))
    outputs = [n for n in dict.fromkeys(bound) if n is not None and n in later]
    reads = _reads_after(lead)
    params = [p for p in group[0].params if p in reads]
    if not outputs or any([p for p in s.params if p in reads] != params for s in group):
        return None
    # each name the statements read that the steps bind (other than their parameters) must be
    # bound by the statements themselves, before
    for step in group:
        local = set(step.params) | {n for s in step.block() for n in _names(s) if _assigned(s) == n}
        if (reads & local) - set(params) - set(bound):
            return None
    name = _fresh(taken, outputs, bool(params) and forward)
    if name is None:
        return None
    result = ", ".join(outputs)
    last = lead[-1]
    if outputs == [bound[-1]] and bound.count(bound[-1]) == 1:
        # `return <value>` for the one value the last statement computes
        value = code(last.body[0].value)  # type: ignore[attr-defined]
        kept, ret = lead[:-1], cst.parse_statement(f"return {value}\n").with_changes(leading_lines=last.leading_lines)
    else:
        kept, ret = lead, cst.parse_statement(f"return {result}\n")
    helper = cst.parse_statement(f"def {name}({', '.join(params)}):\n    pass\n")
    assert isinstance(helper, cst.FunctionDef)
    helper = helper.with_changes(body=helper.body.with_changes(body=[*kept, ret]))
    calls = []
    for i, step in enumerate(group):
        call = cst.parse_statement(f"{result} = {name}({', '.join(params)})\n")
        # the first step's comments went with its statements; the others' go on the call
        comments = [] if i == 0 else [line for s in step.lead[:count] for line in s.leading_lines if line.comment]
        calls.append(call.with_changes(leading_lines=comments))
    return helper, calls, count


def _replaced(step: _Step, call: cst.BaseStatement, count: int) -> cst.FunctionDef:
    """The step with its `count` shared leading statements replaced by the call."""
    new_block = [call, *step.block()[count:]]
    body = list(step.func.body.body)  # type: ignore[union-attr]
    if step.in_tape:
        tape = body[0]
        body[0] = tape.with_changes(body=tape.body.with_changes(body=new_block))  # type: ignore[attr-defined]
    else:
        body = new_block
    return step.func.with_changes(body=step.func.body.with_changes(body=body))
