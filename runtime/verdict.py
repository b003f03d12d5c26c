"""Is a rewrite equivalent to its original? Run both on the engine and compare.

Answers, and the exit codes ``tfmigrate verify`` maps them to (2 is the CLI's
own usage error):

- 0 **equivalent**: every printed number, every gradient at every optimizer
  step and every final variable value agree within ``|new - old| <= atol +
  rtol*scale`` (a tensor element's scale: the largest magnitude of its
  observable; see ``runtime.compare``), words and exit status agree exactly,
  and both programs ran to the end (under a step budget, the code after their
  training loops included: ``runtime.step_budget``), every changed statement
  of the rewrite ran (``runtime.line_coverage``), and every optimizer step agrees once
  more when the rewrite is run from the original's state (``runtime.lockstep``). A free run
  that parts only after training began, where every step agrees in lockstep and the
  lockstep run prints, writes and ends as the original did, is rounding compounded over
  the steps (``_drift``): equivalent, with where the free run parted. With the
  defaults (rtol=1e-4, atol=1e-6) a correct Keras Adam rewrite passes, Keras
  Adam's default epsilon instead of TF1's 1e-8 does not, and an RMSprop
  rewrite whose accumulator starts at zeros differs at step 2;
- 1 **different**: the first divergence in the original's order, then every
  other place where values start to differ (``runtime.attribute``, from a
  second run of each program that records the values its ops compute); or,
  where no value differs, an initializer, dropout or loss built otherwise
  (``runtime.build_config``);
- 3 **unverified**: the engine lacks an API (``Unsupported``), the original itself
  fails (both failing the same way shows nothing of what either would have
  done next), a run timed out or hit the memory cap, the program could not
  be started, the step budget kept part of the programs from running or
  from being compared (``_budget_gap``), the lockstep run could not follow the original
  (``runtime.lockstep`` says why), or nothing differs but some changed lines
  of the rewrite never ran (``not_run`` names them: the comparison says nothing about them;
  when the step budget ended training first, larger budgets are tried: ``_verify``).
"""

from __future__ import annotations

import ast
import math
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from runtime.attribute import first_differences
from runtime.build_config import compare_built
from runtime.compare import compare_runs, failure
from runtime.line_coverage import changed_statements, not_run, ranges
from runtime.lockstep import LockstepResult, compare_lockstep, plan_replay, write_plan
from runtime.observables import Comparison, Divergence, Tolerance
from runtime.sandbox import Lockstep, Runner, RunResult, SandboxError, engine_command, run_program

EXIT_CODES = {"equivalent": 0, "different": 1, "unverified": 3}

__all__ = [
    "EXIT_CODES",
    "Divergence",
    "Options",
    "Verdict",
    "verify_files",
    "verify_sources",
]


@dataclass
class Options:
    rtol: float = 1e-4
    atol: float = 1e-6
    max_steps: int | None = None  # end both programs' training after this many optimizer steps
    timeout: float = 120.0  # seconds, per program
    memory_mb: int = 4096  # address-space cap, per program
    argv: Sequence[str] = ()
    stdin: bytes = b""
    # When different: run both again to name every place values start to differ (``also``).
    attribute: bool = True
    # Lines of the original whose printed text the rewrite changes by design (a graph tensor's
    # repr becomes its value): what they print is paired by print order, not compared.
    reprinted: frozenset[int] = frozenset()
    # Compare every optimizer step once more from the original's state (``runtime.lockstep``).
    lockstep: bool = True
    # Lines of the rewrite whose code is tested on its own (the rewriter's helpers, found by
    # ``migrate.helper_code``): they need not run for the verdict to vouch for them.
    vouched: frozenset[int] = frozenset()


@dataclass
class Verdict:
    status: str  # "equivalent" | "different" | "unverified"
    reason: str  # one line, for humans
    steps_compared: int = 0
    max_abs_diff: float = 0.0
    max_rel_diff: float = 0.0  # for tensor elements: relative to their observable's scale
    divergence: Divergence | None = None
    notes: list[str] = field(default_factory=list)
    also: list[Divergence] = field(default_factory=list)  # further mistakes, original's order
    not_run: list[int] = field(default_factory=list)  # changed lines of the rewrite never run

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def to_dict(self) -> dict[str, Any]:
        """Strict-JSON-able (non-finite floats become strings) for ``--format json``."""
        return _json_safe(asdict(self))


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def verify_files(
    old: Path,
    new: Path,
    options: Options,
    *,
    old_face: str = "auto",
    new_face: str = "tf2",
    runner: Runner = engine_command,
) -> Verdict:
    """Run two programs, each in a copy of its own directory, and compare them."""
    return _verify(
        lambda **extra: _run(Path(old), options, old_face, runner, **extra),
        lambda **extra: _run(Path(new), options, new_face, runner, **extra),
        options,
        sources=(_read(Path(old)), _read(Path(new))),
    )


def _read(path: Path) -> str:
    """A program's text for the line diff; one that cannot be read cannot run either."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def verify_sources(
    old_src: str,
    new_src: str,
    workdir: Path,
    options: Options,
    *,
    filename: str = "main.py",
    old_face: str = "auto",
    new_face: str = "tf2",
    runner: Runner = engine_command,
) -> Verdict:
    """Compare an in-memory rewrite with its original, both run as ``workdir/filename``.

    Each source is written into its own temporary copy of ``workdir``, so data
    files next to the program are found and the user's tree is not written.
    """
    program = Path(workdir) / filename
    where = {"workdir": Path(workdir)}
    return _verify(
        lambda **extra: _run(program, options, old_face, runner, **where, source=old_src, **extra),
        lambda **extra: _run(program, options, new_face, runner, **where, source=new_src, **extra),
        options,
        sources=(old_src, new_src),
    )


def _run(program: Path, options: Options, face: str, runner: Runner, **where: Any) -> RunResult:
    """One run; ``values=True`` (see ``_attribute``) also records computed values, and
    ``max_steps`` replaces the options' step budget."""
    budget = where.pop("max_steps", options.max_steps)
    return run_program(
        program,
        argv=list(options.argv),
        stdin=options.stdin,
        timeout=options.timeout,
        memory_mb=options.memory_mb,
        max_steps=1 if where.get("values") else budget,
        face=face,
        runner=runner,
        **where,
    )


# Runs a program once more, recording values: ``run(values=True)``.
_Rerun = Callable[..., RunResult]


def _attribute(run_old: _Rerun, run_new: _Rerun, first: Divergence, tol: Tolerance) -> list:
    """Where else values start to differ, from a second run of each program.

    The runs stop after one optimizer step: a mistake in what a program computes
    shows in the first values it computes; one in how it updates does not, and
    the first divergence names that.
    """
    try:
        old, new = run_old(values=True), run_new(values=True)
    except SandboxError:
        return []
    records = [run.trace.get("values") if run.trace else None for run in (old, new)]
    if records[0] is None or records[1] is None:
        return []
    found = first_differences(records[0], records[1], tol)
    return [d for d in found if (d.old_line, d.new_line) != (first.old_line, first.new_line)]


def _unsupported(run: RunResult) -> str | None:
    """The API named by an engine ``Unsupported`` error ("tf.x.y is not supported ...")."""
    if run.exception != "Unsupported":
        return None
    message = run.exception_message or ""
    return message.split(" is not supported")[0].strip() or "an API"


def _cannot_run(run: RunResult, side: str, options: Options) -> str | None:
    """Why this run says nothing about equivalence, if it does not."""
    api = _unsupported(run)
    if api is not None:
        return f"unsupported API {api} ({side})"
    if run.timed_out:
        return f"the {side} timed out after {options.timeout:g} s"
    if run.out_of_memory:
        return f"the {side} exceeded the {options.memory_mb} MB memory cap"
    return None


def _unreached(sources: tuple[str, str], new: RunResult) -> list[int]:
    """The rewrite's changed lines whose statements never ran in ``new``.

    A run that recorded no coverage (a runner without the trace) vouches for no line.
    """
    changed = changed_statements(*sources)
    ran = new.trace.get("lines_run") if new.trace else None
    return not_run(changed, ran or [])


#: When changed lines of the rewrite never ran and the step budget ended training early,
#: both programs run again with a budget this many times larger, at most this often: a
#: progress print every 100 steps lies past a budget of 50.
BUDGET_GROWTH = 4
BUDGET_RETRIES = 2


def _verify(
    run_old: _Rerun, run_new: _Rerun, options: Options, sources: tuple[str, str]
) -> Verdict:
    """The verdict; under a step budget that kept changed lines from running, the verdict of
    a larger budget when that one decides (a run too slow for it keeps the first answer)."""
    verdict, cut = _verify_once(run_old, run_new, options, sources)
    budget, growth = options.max_steps, []
    for _ in range(BUDGET_RETRIES):
        if not (budget and _inside(verdict.not_run, cut, sources[1])):
            break
        grown = budget * BUDGET_GROWTH
        again, cut = _verify_once(_budgeted(run_old, grown), _budgeted(run_new, grown), options, sources)
        if again.status == "unverified" and not again.not_run:
            break  # the larger budget says nothing about the lines (a timeout, say)
        lines = f"line{'s' if len(verdict.not_run) > 1 else ''} {ranges(verdict.not_run)}"
        growth.append(f"the step budget grew from {budget} to {grown} optimizer steps: under "
                      f"{budget}, changed {lines} of the rewrite never ran")
        verdict, budget = again, grown
        verdict.notes[:0] = growth
    return verdict


def _budgeted(run: _Rerun, max_steps: int) -> _Rerun:
    return lambda **extra: run(**{"max_steps": max_steps, **extra})


def _verify_once(
    run_old: _Rerun, run_new: _Rerun, options: Options, sources: tuple[str, str]
) -> tuple[Verdict, list[int]]:
    """One verdict, and the rewrite's loops the step budget ended (their first lines)."""
    with tempfile.TemporaryDirectory(prefix="tfmigrate-lockstep-") as folder:
        runs: list[RunResult] = []

        def recorded(run: _Rerun) -> _Rerun:
            def call(**extra: Any) -> RunResult:
                result = run(**extra)
                runs.append(result)
                return result
            return call

        verdict = _verify_in(run_old, recorded(run_new), options, sources, Path(folder))
    first = runs[0] if runs else None
    return verdict, list(first.trace.get("cut_loops") or []) if first and first.trace else []


def _inside(lines: list[int], loops: list[int], source: str) -> bool:
    """Does a line lie in the body of a loop the budget ended? Only there can a larger budget
    reach it (a line of a function nothing calls, or past a `break`, no budget reaches)."""
    if not lines or not loops:
        return False
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    spans = [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree)
             if isinstance(n, (ast.For, ast.While, ast.AsyncFor)) and n.lineno in loops]
    return any(start < line <= end for line in lines for start, end in spans)


def _verify_in(
    run_old: _Rerun, run_new: _Rerun, options: Options, sources: tuple[str, str], folder: Path
) -> Verdict:
    """``_verify``, with ``folder`` for the programs' step states (``runtime.lockstep``)."""
    try:
        old = run_old(**({"lockstep": Lockstep(folder / "original.states")} if options.lockstep else {}))
        reason = _cannot_run(old, "original", options)
        if reason is not None:
            return Verdict("unverified", reason)
        new = run_new()
    except SandboxError as error:
        return Verdict("unverified", str(error))
    reason = _cannot_run(new, "rewrite", options)
    if reason is not None:
        return Verdict("unverified", reason)
    old_failure = failure(old)
    if old_failure is not None and failure(new) != old_failure:
        message = f": {old.exception_message}" if old.exception_message else ""
        return Verdict("unverified", f"the original itself fails: {old_failure}{message}")
    tol = Tolerance(options.rtol, options.atol)
    comparison = compare_runs(old, new, tol, options.reprinted)
    d = comparison.divergence
    checked, drift = None, None
    if d is not None and options.lockstep and _may_be_drift(d, old):
        checked, replayed = _drift(run_new, old, new, folder, options, tol)
        if replayed is not None:  # compare as the lockstep run saw it; say where the free run parts
            drift = f"the free run parts at {_describe(d)}: float32 rounding compounded over the steps"
            comparison, d = replayed, None
        else:
            checked = None  # the free run's difference is the one to report
    built_notes: list[str] = []
    # How the programs were built is compared whenever their values are (drift included): an
    # initializer, dropout or loss built otherwise may show in no number either prints.
    if d is None and old.trace is not None and new.trace is not None:
        d, built_notes = compare_built(old.trace, new.trace)
    if d is None and options.lockstep and checked is None:
        checked, _ = _lockstep(run_new, old, new, folder, options.rtol)
        d = checked.divergence if checked is not None else None
    common = {
        "steps_compared": comparison.steps_compared,
        "max_abs_diff": comparison.max_abs_diff,
        "max_rel_diff": comparison.max_rel_diff,
        "divergence": d,
        "notes": [*_budget_notes(old, new), *comparison.notes, *built_notes,
                  *(checked.notes if checked else []), *([drift] if drift else [])],
    }
    gap = _budget_gap(old, new, d)
    if gap is not None:
        return Verdict("unverified", gap, **common)
    if d is not None and d.incomparable is not None:
        return Verdict("unverified", f"{d.incomparable}: {d.detail}", **common)
    if d is None and old_failure is not None:
        # Two programs that stop at the same error prove nothing about the rest of either.
        after = ""
        if old.stopped_early and new.stopped_early:  # both traces exist: they say so
            after = f", after the step budget ended their training ({len(old.trace['steps'])} steps)"
        lines = (f" at original line {old.exception_line} / rewrite line {new.exception_line}"
                 if (old.exception_line, new.exception_line) != (None, None) else "")
        return Verdict("unverified", f"neither program ran to the end: both {_ending(old_failure)}"
                       f"{lines}{after}", **common)
    if d is None and checked is not None and checked.unverified is not None:
        return Verdict("unverified", checked.unverified, **common)
    if d is None and comparison.uncompared:
        return Verdict("unverified", "variables outside the model pair with nothing on the other "
                       f"side, so their values were not compared: {'; '.join(comparison.uncompared)}",
                       **common)
    unreached = _unreached(sources, new) if d is None else []
    missed = [line for line in unreached if line not in options.vouched]
    if len(missed) < len(unreached):
        common["notes"].append(f"changed lines {ranges(sorted(set(unreached) - set(missed)))} of the "
                               "rewriter's own helpers did not run; their own tests vouch for them")
    if missed:
        return Verdict("unverified", _not_run_reason(missed, new), **common, not_run=missed)
    if d is None:
        in_lockstep = ""
        if checked is not None and checked.steps:
            rel = checked.max_rel
            in_lockstep = (f"; {checked.steps} steps agree in lockstep (max rel diff: gradient "
                           f"{rel['grad']:.3g}, update {rel['post']:.3g}, start {rel['pre']:.3g})")
        run = ""
        if drift is not None:
            run, in_lockstep = "in the lockstep run, ", f"{in_lockstep}; {drift}"
        return Verdict(
            "equivalent",
            f"{run}{comparison.steps_compared} optimizer steps, "
            f"{comparison.variables_compared} final variables and "
            f"{comparison.printed_numbers_compared} printed numbers agree "
            f"(max abs diff {comparison.max_abs_diff:.3g}, "
            f"max rel diff {comparison.max_rel_diff:.3g}){in_lockstep}",
            **common,
        )
    also = []
    if options.attribute and d.observable != "exit":
        also = _attribute(run_old, run_new, d, tol)
    reason = "; also ".join(_describe(found) for found in [d, *also])
    return Verdict("different", reason, **common, also=also)


def _lockstep(
    run_new: _Rerun, old: RunResult, new: RunResult, folder: Path, rtol: float
) -> tuple[LockstepResult | None, RunResult | None]:
    """Run the rewrite in lockstep with the original's recorded states and compare each step,
    with the lockstep run when there was one; None when neither program steps an optimizer
    (nothing to compare)."""
    if old.trace is None or new.trace is None or not (old.trace["steps"] or new.trace["steps"]):
        return None, None
    plan, why = plan_replay(old.trace, folder / "original.states", new.trace)
    if plan is None:
        return LockstepResult(unverified=f"the optimizer steps cannot be compared in lockstep: {why}"), None
    if not plan["steps"]:  # the first step's state alone is over the budget
        note = ("no step compared in lockstep: one step's state is larger than the state budget; "
                "the steps are compared in the free run only")
        return LockstepResult(notes=[note]), None
    states = folder / "rewrite.states"
    try:
        run = run_new(lockstep=Lockstep(states, replay=write_plan(plan, folder / "plan.json")))
    except SandboxError as error:
        return LockstepResult(unverified=f"the lockstep run of the rewrite could not start: {error}"), None
    if run.trace is None or run.timed_out or run.out_of_memory:
        why = "timed out" if run.timed_out else "hit the memory cap" if run.out_of_memory else "left no trace"
        return LockstepResult(unverified=f"the lockstep run of the rewrite {why}"), None
    result = compare_lockstep(old.trace, folder / "original.states", run.trace, states, rtol)
    if result.divergence is None and result.unverified is None and failure(run) != failure(new):
        result.unverified = (f"the lockstep run of the rewrite ends with {failure(run) or 'success'}, "
                             f"its free run with {failure(new) or 'success'}")
    return result, run


#: Free-run differences that compounding float32 rounding can produce: numbers computed
#: after training has begun. A difference in words, in how a run ends, in how a variable or
#: an optimizer was built, or before the second step is never drift.
_DRIFTING = {"gradient": 2, "update": 2, "variable": 2, "stdout": 1, "summary": 1}


def _may_be_drift(d: Divergence, old: RunResult) -> bool:
    """Could the free run's first difference be rounding compounded over the steps?"""
    if d.incomparable is not None or d.observable not in _DRIFTING or old.trace is None:
        return False
    if len(old.trace["steps"]) < 2:
        return False
    if d.observable == "stdout" and not d.detail.startswith("output differs"):
        return False  # other words, or one output ending first
    if d.observable == "variable" and d.step is None:
        return d.detail.startswith("final value")
    return d.step is not None and d.step >= _DRIFTING[d.observable]


def _drift(
    run_new: _Rerun, old: RunResult, new: RunResult, folder: Path, options: Options, tol: Tolerance
) -> tuple[LockstepResult | None, Comparison | None]:
    """The lockstep comparison, and the original against the lockstep run when that shows the
    free run's difference to be drift: every step the original took agrees from the original's
    state, and the lockstep run prints, writes and ends as the original did. Else None for the
    comparison, and the free run's difference stands.

    Float32 rounding that two correct programs do differently (Keras's Adam computes
    ``1 - beta`` in float64, TF1 in float32) compounds over the steps until a free run parts
    past any fixed allowance; lockstep starts every step from the same state, so what the
    rewrite computes per step is compared at rounding, whatever the number of steps.
    """
    checked, run = _lockstep(run_new, old, new, folder, options.rtol)
    if checked is None or run is None or checked.divergence is not None or checked.unverified:
        return checked, None
    if checked.steps != len(old.trace["steps"]):  # the state budget left steps unchecked
        return checked, None
    again = compare_runs(old, run, tol, options.reprinted)
    if again.divergence is not None or again.uncompared:
        return checked, None
    return checked, again


def _budget_notes(old: RunResult, new: RunResult) -> list[str]:
    """Where the step budget ended both programs' training, when it did."""
    if not (old.stopped_early and new.stopped_early):
        return []
    budget = old.trace.get("max_steps")
    taken = len(old.trace["steps"]), len(new.trace["steps"])
    note = f"training stopped after {budget} optimizer steps (the step budget)"
    if taken[0] == taken[1] and taken[0] != budget:
        note += f", {taken[0]} in all"
    loops = [run.trace.get("cut_loops") or [] for run in (old, new)]
    if any(loops):
        note += (f": loops ended at original line {_lines(loops[0])}, rewrite line {_lines(loops[1])}; "
                 "the code after them ran and is compared")
    return [note]


def _lines(lines: list[int]) -> str:
    return ", ".join(map(str, lines)) or "none"


def _budget_gap(old: RunResult, new: RunResult, d: Divergence | None) -> str | None:
    """Why the step budget leaves the verdict open, if it does.

    The budget ends training in loops; where a loop cannot be cut (``runtime.step_budget``)
    it stops the program instead, and the code after that never runs. Two programs stopped
    at the same step compare as far as they ran (a difference there is a difference); one
    stopped and one not, or two whose loops let a different number of steps run past the
    budget, have nothing comparable after training. A gradient of a step both took, or a
    variable created differently, is a difference all the same.
    """
    if old.trace is None or new.trace is None or not (old.stopped_early or new.stopped_early):
        return None
    if d is not None and _before_the_budget(d):
        return None
    stops = {side: run.trace.get("stopped") for side, run in (("original", old), ("rewrite", new))}
    taken = len(old.trace["steps"]), len(new.trace["steps"])
    stopped = [(side, where) for side, where in stops.items() if where]
    if len(stopped) == 2 and taken[0] == taken[1]:
        if d is not None:
            return None
        return (f"the step budget stopped both programs at optimizer step {taken[0] + 1} (original "
                f"line {stops['original']['line']}, rewrite line {stops['rewrite']['line']}), in a "
                f"loop it cannot end: the code after it did not run")
    if stopped:
        side, where = stopped[0]
        return (f"the step budget stopped the {side} at optimizer step {where['step']} (line "
                f"{where['line']}), in a loop it cannot end: the code after it did not run")
    budget = old.trace.get("max_steps") or 0
    if old.stopped_early and new.stopped_early and taken[0] != taken[1] and min(taken) >= budget:
        return (f"the step budget ended training after {taken[0]} optimizer steps in the original "
                f"and {taken[1]} in the rewrite (their loops group steps differently): what "
                "follows training cannot be compared")
    return None


def _before_the_budget(d: Divergence) -> bool:
    """Does ``d`` show in a step both programs took, or in how a variable was created?"""
    if d.observable in ("gradient", "update"):
        return d.variable is not None
    if d.observable == "configuration":
        return True
    return d.observable == "variable" and not d.detail.startswith("final value")


def _not_run_reason(missed: list[int], new: RunResult) -> str:
    """``2 changed lines of the rewrite never ran: 10-11; ...``, or why none was seen to run."""
    many = len(missed) > 1
    them = "them" if many else "it"
    if not (new.trace and new.trace.get("lines_run") is not None):
        return (f"{len(missed)} changed line{'s' if many else ''} of the rewrite ({ranges(missed)}) "
                "not seen to run: the rewrite ended without recording line coverage")
    return (f"{len(missed)} changed line{'s' if many else ''} of the rewrite never ran: "
            f"{ranges(missed)}; a test input that reaches {them} would verify {them}")


def _ending(failure: str) -> str:
    """``raise ValueError`` or ``end with exit status 2``."""
    return f"end with {failure}" if failure.startswith("exit status") else f"raise {failure}"


def _describe(d: Divergence) -> str:
    """One line: observable, where, what, and the source lines on both sides."""
    if d.observable in ("stdout", "summary"):  # their detail names what was written
        place = f" after step {d.step}" if d.step else ""
    else:
        parts = [p for p in (f"step {d.step}" if d.step is not None else "", d.variable) if p]
        place = f" at {', '.join(parts)}" if parts else ""
    lines = ""
    if d.old_line is not None or d.new_line is not None:
        lines = f" (original line {d.old_line}, rewrite line {d.new_line})"
    return f"{d.observable}{place}: {d.detail}{lines}"
