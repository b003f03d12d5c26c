"""What a program lets the world see, recorded while it runs on the engine.

The engine reports four kinds of event here: a variable was created, an
optimizer applied one update step, a value was written to a TensorBoard
events file, and a checkpoint was saved. The verification harness turns them, plus
stdout and the exit status, into a trace it can compare between two programs.

Recording is off unless a trace file is named (``TFMIGRATE_TRACE``) or a step
budget is set (``TFMIGRATE_MAX_STEPS``), so plain ``tfmigrate run`` pays nothing.

Engine side of the contract:

- call ``variable_created(var)`` once per variable (user, layer and optimizer
  variables alike); ``var`` needs ``.name`` or ``.path`` and a ``.numpy()`` that
  still reads the value at a step and at exit; ``.trainable`` if it has one;
- call ``optimizer_step([(grad, var), ...])`` *before* applying an update, so that
  ``StopProgram`` leaves the variables exactly as after the last recorded step;
  ``var`` is the object reported at creation or the variable behind it: the
  reported object's ``.var`` if it has one (matched by identity: TF2 names
  every unnamed variable ``Variable``), else matched by name;
- call ``summary_written(tag, step, value)`` for each value written to an events
  file (TensorBoard shows them: they are output like stdout);
- call ``checkpoint_written([(var, value), ...])`` for each checkpoint saved: what
  a later program restores is output too;
- call ``initializer_drawn(rule)`` when an initializer draws the values of the variable
  about to be created, and ``configured(rule)`` when the program builds a dropout or a
  loss (``update_rules.build_rule``): what each side built is compared too;
- call ``step_applied()`` once the update announced by ``optimizer_step`` is applied: the
  lockstep comparison records and sets the model's state there (``runtime.step_states``);
- a spent budget ends the program's training loops (``runtime.step_budget`` makes them
  call ``loop_started`` and ``loop_cut``); a step no cut loop can stop raises
  ``StopProgram``, and the sandbox's bootstrap runs the runner inside ``run_main``, which
  turns it into exit status 0.

Recorded per run: every variable's creation line in the user program
(``TFMIGRATE_PROGRAM``) and the program lines that called it, value before its
first update and value at exit; every step's gradients and the program line that
applied it; every summary value with its tag, step and the program line that
wrote it; the variables each checkpoint saved, with their values; which program
line printed which stdout bytes; which program lines ran (``lines_run``, see
``runtime.line_coverage``); and how much stdout had been written at each event,
so events and printed text can be ordered.
Under a step budget, also whether it cut training short (``stopped_early``), the lines of
the loops it ended (``cut_loops``) and, when a step no loop could stop ended the program,
that step and its line (``stopped``): the code after it did not run.
On request (``TFMIGRATE_VALUES``), also every value the program's ops compute
(``ValueLog``; the engine calls ``recorder.values`` when op kernels run).
The trace file is JSON (``FORMAT`` below); ``runtime.compare`` and
``runtime.attribute`` read it.
"""

from __future__ import annotations

import atexit
import builtins
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from runtime.line_coverage import LineCoverage
from runtime.step_states import Replay, StateLog
from runtime.step_states import from_env as _states_from_env

TRACE_ENV = "TFMIGRATE_TRACE"
MAX_STEPS_ENV = "TFMIGRATE_MAX_STEPS"
PROGRAM_ENV = "TFMIGRATE_PROGRAM"
VALUES_ENV = "TFMIGRATE_VALUES"  # set: also record the values ops compute (``ValueLog``)
FORMAT = 1

# Computed values recorded per run: enough for the first steps of a tutorial model.
VALUES_LIMIT = 4000

# Tensors larger than this are recorded as a digest (norms plus a fixed sample):
# full gradients of an MNIST-sized model at every step would not fit in memory.
FULL_VALUES_LIMIT = 4096
SAMPLE_SIZE = 64


class StopProgram(BaseException):
    """Raised when the step budget (``--max-steps``) is spent and no loop of the program
    can end its training (see ``Recorder.optimizer_step``); ends the program cleanly.

    A BaseException so user ``except Exception`` blocks do not swallow it.
    """


def variable_key(var: Any) -> str:
    """Key a variable by the name users know: ``dense1/weight`` (no ``:0``)."""
    name = getattr(var, "path", None) or getattr(var, "name", None) or ""
    return name.removesuffix(":0")


def record_array(value: Any) -> dict[str, Any]:
    """A JSON-able record of a tensor: all values, or a digest when it is large.

    The digest keeps L1/L2 norms and the largest magnitude (stable under float
    rounding, unlike a plain sum that can cancel to ~0) and a sample at fixed
    positions, so both sides sample the same elements.
    """
    array = np.asarray(value.numpy() if callable(getattr(value, "numpy", None)) else value)
    record: dict[str, Any] = {"shape": list(array.shape), "dtype": str(array.dtype)}
    if array.dtype.kind not in "biufc":
        record["values"] = [str(x) for x in array.reshape(-1).tolist()]
        return record
    flat = array.reshape(-1)
    if array.dtype.kind in "fc":
        flat = flat.real.astype(np.float64)
    if flat.size <= FULL_VALUES_LIMIT:
        record["values"] = flat.tolist()
        return record
    positions = np.linspace(0, flat.size - 1, SAMPLE_SIZE).astype(np.int64)
    magnitude = np.abs(flat.astype(np.float64))
    record.update(
        positions=positions.tolist(),
        values=flat[positions].tolist(),
        l1=float(magnitude.sum()),
        l2=float(np.sqrt(np.square(magnitude).sum())),
        max_abs=float(magnitude.max()),
    )
    return record


@functools.lru_cache(maxsize=4096)
def _realpath(filename: str) -> str:
    return os.path.realpath(filename)


def _program_lines(innermost_only: bool = False) -> list[int]:
    """The lines of the user program on the stack now, innermost first.

    The frames below the innermost one are its callers: a weight created in a
    layer's ``build`` is called from the line that calls the layer, which is
    what decided the weight's shape.
    """
    program = os.environ.get(PROGRAM_ENV)
    if not program:
        return []
    target = _realpath(program)
    lines = []
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename == program or _realpath(filename) == target:
            lines.append(frame.f_lineno)
            if innermost_only:
                break
        frame = frame.f_back
    return lines


def _program_line() -> int | None:
    """The line of the user program that is running now (innermost frame in its file)."""
    lines = _program_lines(innermost_only=True)
    return lines[0] if lines else None


def _stdout_offset() -> int | None:
    """Bytes written to stdout so far, when stdout is a file (the sandbox makes it one).

    Lets the comparison order a printed difference against an update difference.
    """
    try:
        sys.stdout.flush()
        if sys.__stdout__ is not None and sys.__stdout__ is not sys.stdout:
            sys.__stdout__.flush()
        return os.lseek(1, 0, os.SEEK_CUR)
    except (OSError, ValueError, AttributeError):
        return None


_ENGINE = os.path.dirname(os.path.abspath(__file__))
# Engine code that computes values on the program's behalf: gradients and updates.
_DERIVING = tuple(
    os.path.join(_ENGINE, *part)
    for part in (("gradients.py",), ("optimizers", ""), ("keras", "optimizers.py"))
)


def _deriving() -> bool:
    """Is the engine differentiating or applying an update (not running the user's ops)?"""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename.startswith(_DERIVING):
            return True
        frame = frame.f_back
    return False


class ValueLog:
    """The values a program computes, each with the program line that made its op.

    Recorded only on request (a second run after a divergence): which lines first
    compute something the other program never computes names every independent
    mistake, not only the first observable that shows one. Every execution of an
    op is recorded, up to ``VALUES_LIMIT`` values.
    A value's inputs are the indices of recorded values (-1: a feed or a capture);
    ``derived`` marks values of gradients and updates, which TF1 and TF2 compute
    through different intermediate ops.
    """

    def __init__(self, limit: int = VALUES_LIMIT) -> None:
        self.limit = limit
        self.records: list[dict[str, Any]] = []
        self._by_tensor: dict[int, int] = {}
        self._keep: list[Any] = []  # eager tensors stay alive so their ids stay theirs

    def wrap(self, op: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn``, the kernel of graph op ``op``, recording its outputs each time it runs."""
        lines = _program_lines()
        derived = _deriving()

        def kernel(*arrays: Any) -> Any:
            result = fn(*arrays)
            if len(self.records) < self.limit:
                outputs = [result] if op.opdef.n_out == 1 else list(result or ())
                self._add(op.type, op.inputs, op.outputs, outputs, lines, derived)
            return result

        return kernel

    def computed(self, op_type: str, inputs: list[Any], outputs: list[Any]) -> None:
        """An eager op ran: ``outputs`` (tensors with ``.numpy()``) from ``inputs``."""
        if len(self.records) >= self.limit:
            return
        self._keep += outputs
        values = [t.numpy() for t in outputs]
        self._add(op_type, inputs, outputs, values, _program_lines(), _deriving())

    def _add(
        self,
        op_type: str,
        inputs: list[Any],
        tensors: list[Any],
        values: list[Any],
        lines: list[int],
        derived: bool,
    ) -> None:
        sources = [self._by_tensor.get(id(t), -1) for t in inputs]
        for tensor, value in zip(tensors, values):
            if len(self.records) >= self.limit:
                return
            array = np.asarray(value)
            if array.dtype.kind not in "biuf":
                continue
            self._by_tensor[id(tensor)] = len(self.records)
            self.records.append(
                {
                    "op": op_type,
                    "line": lines[0] if lines else None,
                    "callers": lines[1:],
                    "inputs": sources,
                    "derived": derived,
                    "value": record_array(array),
                }
            )


class Recorder:
    """Collects variables and optimizer steps; writes them as JSON at exit."""

    def __init__(self, path: str | None, max_steps: int | None) -> None:
        self.path = path
        self.max_steps = max_steps
        self.variables: list[Any] = []
        self.steps: list[dict[str, Any]] = []
        self.prints: list[tuple[int, int]] = []  # (stdout offset before, program line)
        self.summaries: list[dict[str, Any]] = []
        self.checkpoints: list[dict[str, Any]] = []
        self.stopped_early = False  # the budget cut training short (loops ended, or the program)
        self.cut_loops: list[int] = []  # program lines of the loops the budget ended
        self.stopped: dict[str, Any] | None = None  # where the program itself was stopped
        self._since_check = 0  # steps since a cut loop last checked the budget
        self._longest_run = 0  # most such steps before the budget was spent
        self._lines: list[list[int]] = []  # per variable: creation line, then its callers
        self._offsets: list[int | None] = []
        self._index: dict[int, int] = {}
        self._by_key: dict[str, int] = {}
        self._initial: dict[int, dict[str, Any] | None] = {}
        self.values: ValueLog | None = None
        self.coverage: LineCoverage | None = None  # the program's lines that ran
        self.states: StateLog | None = None  # each step's state, in full (``runtime.step_states``)
        self.replay: Replay | None = None  # sets the state after each step (lockstep)
        self._stepped: list[tuple[int, Any]] | None = None  # the step being applied
        self._inits: dict[int, dict[str, Any] | None] = {}  # per variable: its initializer's rule
        self._next_init: dict[str, Any] | None = None  # the rule the next variable starts from
        self.built: list[dict[str, Any]] = []  # dropouts and losses: rule and program line
        self._built_keys: set[tuple[int | None, str]] = set()

    @property
    def active(self) -> bool:
        return self.path is not None or self.max_steps is not None

    def variable_created(self, var: Any, line: int | None = None) -> None:
        """Remember a variable, the user's source line that created it, and that line's callers."""
        if not self.active or id(var) in self._index:
            return
        index = self._register(var, [line] if line is not None else _program_lines())
        self._inits[index], self._next_init = self._next_init, None

    def initializer_drawn(self, rule: dict[str, Any] | None) -> None:
        """An initializer drew the values of the variable about to be created (``rule``: how)."""
        if self.path is not None:
            self._next_init = rule

    def configured(self, rule: dict[str, Any]) -> None:
        """The program built a dropout or a loss (``update_rules.build_rule``); each program
        line records each rule once, however often it runs."""
        if self.path is None:
            return
        line = _program_line()
        key = (line, json.dumps(rule, sort_keys=True))
        if key not in self._built_keys:
            self._built_keys.add(key)
            self.built.append({"rule": rule, "line": line})

    def _register(self, var: Any, lines: list[int]) -> int:
        index = len(self.variables)
        self._index[id(var)] = index
        behind = getattr(var, "var", None)
        if behind is not None:
            self._index[id(behind)] = index
        self._by_key[variable_key(var)] = index
        self.variables.append(var)
        self._lines.append(lines)
        self._offsets.append(_stdout_offset())
        return index

    def _index_of(self, var: Any) -> int:
        """The creation index of a stepped variable: same object, else latest of that name.

        The engine may report a wrapper at creation and the variable behind it at a
        step; ``_register`` indexes both.
        """
        index = self._index.get(id(var))
        if index is None:
            index = self._by_key.get(variable_key(var))
        return self._register(var, []) if index is None else index

    def loop_started(self) -> int:
        """A cut loop starts (``runtime.step_budget``): the steps taken so far."""
        self._since_check = 0
        return len(self.steps)

    def loop_cut(self, started_at: int, line: int) -> bool:
        """Must the loop on ``line``, started after ``started_at`` steps, exit now?

        Yes once the budget is spent, if it has seen a step since it started: a training
        loop, or one around it. An evaluation loop never does.
        """
        self._since_check = 0
        taken = len(self.steps)
        if self.max_steps is None or taken < self.max_steps or taken == started_at:
            return False
        self.stopped_early = True
        if line not in self.cut_loops:
            self.cut_loops.append(line)
        return True

    def _step_past_budget(self) -> bool:
        """May one more step run, with the budget spent?

        Steps past it run while the loops wind down: the rest of the iteration in which the
        budget ran out (a second optimizer's step), a loop that starts afterwards (until its
        next iteration), a last step outside any loop. A run of steps with no cut loop
        checking in between that grows longer than any before the budget ran out is driven by
        a loop that cannot be cut (a comprehension, another module's, the engine's); so is
        anything past twice the budget. Those end the program, as a spent budget always did.
        """
        return self._since_check < self._longest_run and len(self.steps) < 2 * self.max_steps

    def _count_step(self) -> None:
        """Count a step against the budget; stop the program where no loop can end training."""
        taken = len(self.steps)
        if taken >= self.max_steps and not self._step_past_budget():
            self.stopped_early = True
            self.stopped = {"step": taken + 1, "line": _program_line()}
            raise StopProgram(f"stopped after {self.max_steps} optimizer steps")
        self._since_check += 1
        if taken < self.max_steps:
            self._longest_run = max(self._longest_run, self._since_check)

    def optimizer_step(
        self, grads_and_vars: Iterable[tuple[Any, Any]], rule: dict[str, Any] | None = None
    ) -> None:
        """Record one update about to be applied, and the ``rule`` it applies (the optimizer's
        kind and hyperparameters); or stop the program (``_count_step``)."""
        if not self.active:
            return
        if self.max_steps is not None:
            self._count_step()
        if self.path is None:
            self.steps.append({})
            return
        grads = []
        stepped = []
        for grad, var in grads_and_vars:
            index = self._index_of(var)
            if index not in self._initial:
                self._initial[index] = self._read(index)
            grads.append(
                {
                    "var": variable_key(var),
                    "index": index,
                    "grad": None if grad is None else record_array(grad),
                }
            )
            stepped.append((index, var, grad))
        self.steps.append(
            {"line": _program_line(), "stdout_offset": _stdout_offset(), "grads": grads,
             "rule": rule}
        )
        if self.states is not None:
            self.states.before_update(
                len(self.steps), [(i, self.variables[i].numpy(), g) for i, _, g in stepped]
            )
        self._stepped = [(i, var) for i, var, _ in stepped]

    def step_applied(self) -> None:
        """The update announced by ``optimizer_step`` has been applied to the variables.

        Its result is written to the state log, then a lockstep replay sets the variables.
        """
        stepped, self._stepped = self._stepped, None
        if not stepped:
            return
        if self.states is not None:
            self.states.after_update({i: self.variables[i].numpy() for i, _ in stepped})
        if self.replay is not None:
            self.replay.after_update(
                len(self.steps),
                [(i, variable_key(v), v, self.variables[i].numpy()) for i, v in stepped],
            )

    def summary_written(self, tag: str, step: int | None, value: Any) -> None:
        """Record one value written to an events file, with the optimizer steps taken before it."""
        if self.path is None:
            return
        self.summaries.append(
            {
                "tag": tag,
                "step": step,
                "value": record_array(value),
                "line": _program_line(),
                "steps": len(self.steps),
                "stdout_offset": _stdout_offset(),
            }
        )

    def checkpoint_written(self, saved: Iterable[tuple[Any, Any]]) -> None:
        """Record the values one checkpoint saves, by the creation index of each saved variable
        (one the trace never saw created, such as a save counter, is left out)."""
        if self.path is None:
            return
        values = []
        for var, value in saved:
            index = self._index.get(id(var))
            if index is not None:
                values.append({"index": index, "value": record_array(value)})
        self.checkpoints.append(
            {
                "saved": values,
                "line": _program_line(),
                "steps": len(self.steps),
                "stdout_offset": _stdout_offset(),
            }
        )

    def _read(self, index: int) -> dict[str, Any] | None:
        try:
            return record_array(self.variables[index].numpy())
        except Exception:  # noqa: BLE001 -- one unreadable variable must not lose the trace
            return None

    def snapshot(self) -> dict[str, Any]:
        """The trace: steps, and every variable's value before its first update and at exit.

        The value before the first update names the cause when two programs start
        from different initial values (a changed initializer), not its effect on
        the first gradient.
        """
        final = []
        for index, var in enumerate(self.variables):
            final.append(
                {
                    "var": variable_key(var),
                    "index": index,
                    "trainable": bool(getattr(var, "trainable", True)),
                    "line": self._lines[index][0] if self._lines[index] else None,
                    "callers": self._lines[index][1:],
                    "stdout_offset": self._offsets[index],
                    "initial": self._initial.get(index),
                    "init": self._inits.get(index),
                    "value": self._read(index),
                }
            )
        return {
            "format": FORMAT,
            "stopped_early": self.stopped_early,
            "max_steps": self.max_steps,
            "cut_loops": self.cut_loops,
            "stopped": self.stopped,
            "steps": self.steps,
            "variables": final,
            "prints": self.prints,
            "summaries": self.summaries,
            "checkpoints": self.checkpoints,
            "values": self.values.records if self.values is not None else None,
            "lines_run": sorted(self.coverage.lines) if self.coverage is not None else None,
            "states": self.states.snapshot() if self.states is not None else None,
            "built": self.built,
            "replay": self.replay.snapshot() if self.replay is not None else None,
        }

    def write(self) -> None:
        if self.path is None:
            return
        with open(self.path, "w", encoding="utf-8") as fh:
            json.dump(self.snapshot(), fh)


def run_main(main: Callable[[], object]) -> None:
    """Run the user program; a spent step budget is a normal end (exit status 0)."""
    try:
        main()
    except StopProgram:
        recorder.stopped_early = True


def traced_print(recorder: Recorder, print_: Callable[..., None]) -> Callable[..., None]:
    """``print`` that remembers which program line wrote which stdout bytes.

    Lets a printed difference name the ``print`` call on each side.
    """

    def print_and_record(*args: Any, **kwargs: Any) -> None:
        if kwargs.get("file") in (None, sys.stdout):
            line = _program_line()
            offset = _stdout_offset()
            if line is not None and offset is not None:
                recorder.prints.append((offset, line))
        print_(*args, **kwargs)

    return print_and_record


def _from_env() -> Recorder:
    steps = os.environ.get(MAX_STEPS_ENV)
    recorder = Recorder(os.environ.get(TRACE_ENV), int(steps) if steps else None)
    if recorder.path is not None:
        if os.environ.get(VALUES_ENV):
            recorder.values = ValueLog()
        recorder.states, recorder.replay = _states_from_env()
        atexit.register(recorder.write)
        if os.environ.get(PROGRAM_ENV):
            builtins.print = traced_print(recorder, builtins.print)
            recorder.coverage = LineCoverage(os.environ[PROGRAM_ENV]).start()
    return recorder


recorder = _from_env()
variable_created = recorder.variable_created
optimizer_step = recorder.optimizer_step
summary_written = recorder.summary_written
checkpoint_written = recorder.checkpoint_written
step_applied = recorder.step_applied
initializer_drawn = recorder.initializer_drawn
configured = recorder.configured
