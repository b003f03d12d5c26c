"""The program move: a module-level TF1 graph program → TF2 functions, variables and optimizers.

Statements are classified into a graph model (graph.py). Graph objects that persist
(variables, optimizers, layers, models) stay where they were, converted; tensor computations
leave the top level and are replayed inside one `@tf.function` per distinct run site, whose
body is the backward slice of that site's fetches. Driver code (loops, prints) keeps its place
and calls the functions instead of `sess.run`.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from functools import partial

import libcst as cst

from . import codegen as cg
from .builder_methods import inline_builder_methods
from .global_steps import resolve_global_step
from .graph import INSIDE, Scope, calls_by_callee, calls_in, memoised_walk, names_read
from .graph_classes import ExternalRun, convert_class, is_graph_class
from .graph_loops import loop_node, split_graph_loops
from .inline import inline_builders
from .layer_groups import group_layers, told_as_groups
from .layer_name_scopes import open_name_scopes
from .move import (
    classify,
    contexts,
    driver,
    eager_draws,
    node_statements,
    run_sites,
    seeding,
    steps,
    summary_ops,
)
from .move.state import Item, MoveState, assigns_in, bound_names, rebound_by_driver
from .move.suffixes import unsuffixed
from .op_seeds import is_random
from .rebound_values import rename_rebound_values
from .report import Finding, Unsupported
from .rules.imports import RULE as IMPORT_RULE
from .rules.imports import is_mode_call, starts_file, v2_import
from .rules.session import RULE as SESSION_RULE
from .rules.session import SESSION_CALLS
from .rules.summaries import RULE as SUMMARIES_RULE
from .scoped_models import ModelBuilder
from .shared_steps import share_steps
from .summary_helpers import call_statements, summary_helpers
from .suppress import is_skipped
from .variable_factories import get_variable_factory, returned_structure
from .variable_wrappers import inline_variable_wrappers
from .walk import walk

#: `x op= v` is `x = x op v` for a tensor: the operator each augmented assignment applies.
AUGMENTED: dict[type[cst.BaseAugOp], type[cst.BaseBinaryOp]] = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.PowerAssign: cst.Power, cst.MatrixMultiplyAssign: cst.MatrixMultiply,
}


class ProgramMove(MoveState):
    """The driver: walks each block of the program, hands each statement to the pass of its
    construct (move/), and places the step functions they make before the code that calls them."""

    def run(self) -> list[cst.BaseStatement]:
        """The new module body. Raises Unsupported when the program falls outside the model."""
        groups: dict[str, list[str]] = {}
        try:
            return self._run(groups)
        except Unsupported as error:
            raise told_as_groups(error, groups) from None

    def _run(self, groups: dict[str, list[str]]) -> list[cst.BaseStatement]:
        self.module = rename_rebound_values(self.module, self.aliases, self.lines, self.findings)
        self.module = open_name_scopes(self.module, self.aliases, self.lines, self.findings)
        self.module = inline_variable_wrappers(self.module, self.aliases, self.lines, self.findings, self.library)
        self.module = inline_builders(self.module, self.aliases, self.lines, self.findings, self.suffixed)
        self.module = group_layers(self.module, self.aliases, self.lines, self.findings, groups)
        self.module = resolve_global_step(self.module, self.aliases, self.lines, self.findings)
        self.used_names = {n.value for n in names_read(self.module)}
        self.fresh_from = {}
        self.models = ModelBuilder(self.aliases, self.lines, self.findings, module=self.module, library=self.library)
        self.summary_helpers = summary_helpers(self.module, self.aliases)
        helper_ids = {id(n) for f in self.summary_helpers.values() for n in names_read(f)}
        self.helper_taken = {n.value for n in names_read(self.module) if id(n) not in helper_ids}
        body = self.models.seeds.written(self._process(list(self.module.body), top=True))
        for name in self.summary_helpers:
            for call in call_statements(self.module, name):
                if id(call) not in self.inlined_calls:
                    # its definition is gone: a call the move did not reach would fail
                    raise Unsupported(SUMMARIES_RULE.id, self.line(call), f"{name}() called where its summaries reach no merge")
        body = eager_draws.redraw_shared_seeds(self, body)
        return self._with_imports(unsuffixed(body, self.suffixed, self.lines, self.findings))

    def _with_imports(self, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        """`import <module>` lines for what the rewrite calls into, before the first import."""
        if not self.new_imports:
            return body
        at = next((i for i, s in enumerate(body) if isinstance(s, cst.SimpleStatementLine)
                   and isinstance(s.body[0], (cst.Import, cst.ImportFrom))), 1 if body and cg.is_docstring(body[0]) else 0)
        added = [cst.parse_statement(f"import {name}\n") for name in sorted(self.new_imports)]
        if at < len(body):
            added[0] = added[0].with_changes(leading_lines=body[at].leading_lines)
            body = [*body[:at], body[at].with_changes(leading_lines=[]), *body[at + 1:]]
        return [*body[:at], *added, *body[at:]]

    def _process(self, body: list[cst.BaseStatement], top: bool) -> list[cst.BaseStatement]:
        """One block of the scope: statements converted, step functions placed before use."""
        out = self._process_block(body, top)
        if top:  # placeholders no step takes: their comments stay in the scope
            out = cg.with_closing_comments(out, [line for lines in self.placeholder_comments.values() for line in lines])
            self.placeholder_comments.clear()
        return out

    def _process_block(self, body: list[cst.BaseStatement], top: bool) -> list[cst.BaseStatement]:
        body = split_graph_loops(body, self.aliases, self.lines, self.findings, self.fresh)
        items = contexts.flatten(self, body, "", [])
        out: list[cst.BaseStatement] = []
        functions: list[cst.FunctionDef] = []
        insert_at: int | None = None
        graph_end = 0  # just after the last graph-building statement
        deferred: list[tuple[int, cst.FunctionDef]] = []  # defs whose bodies run sessions
        pending: list[cst.EmptyLine] = []  # comments of dropped statements
        for item in items:
            block = self._emit_block(item)
            if block is not None:
                out.extend(block[0])
                continue
            if isinstance(item.stmt, cst.FunctionDef) and (self.class_mode or run_sites.has_run_calls(self, item.stmt)):
                func = item.stmt
                if self.class_mode:  # comments of the dropped statements of __init__ stay in it
                    self.init_comments += cg.comments(pending)
                elif cg.comments(pending):  # ... of those before it: above it
                    func = func.with_changes(leading_lines=cg.merge_leading(pending, list(func.leading_lines)))
                    cg.record_line(self.lines, func, self.line(item.stmt))
                deferred.append((len(out), func))
                out.append(func)
                pending = []
                continue
            if insert_at is None and self._calls_deferred(item.stmt, deferred):
                insert_at = len(out)  # the steps its runs call must be defined before it runs them
            emitted, new_functions = self._emit(item)
            if new_functions and insert_at is None:
                insert_at = len(out)
            functions.extend(new_functions)
            if self._defines_graph(item):
                graph_end = len(out) + len(emitted)
            if not emitted:
                if not self._moved(item):
                    inner = [] if id(item.stmt) in self.comments_moved else cg.inner_comments(item.stmt)
                    pending.extend([*item.stmt.leading_lines, *inner])
                continue
            first, *rest = emitted
            lead = cg.merge_leading(pending, list(first.leading_lines))
            if first is not item.stmt and out and isinstance(out[-1], (cst.FunctionDef, cst.ClassDef)):
                lead = cg.blank(max(0, self.gap - cg.blank_run(lead))) + lead  # PEP 8 after a definition
            out.append(first.with_changes(leading_lines=lead))
            out.extend(rest)
            pending = []
        out = cg.with_closing_comments(out, cg.comments(pending))  # the block's last, dropped statements
        out = seeding.with_seeded_helpers(self, out)
        # Function bodies run when called, after the graph is built: convert them last.
        late: list[cst.FunctionDef] = []
        for index, func in deferred:
            # Its parameters that calls pass a session in run sessions in its body.
            given = self.session_params.get(func.name.value, set()) - self.scope.sessions
            self.scope.sessions |= given
            emitted, new_functions = driver.emit_driver(self, func)
            self.scope.sessions -= given
            out[index] = emitted[0] if emitted else func
            late.extend(new_functions)
        if top:
            late.extend(self._unrun_functions())
        late_at = max(graph_end, insert_at or 0)
        if insert_at is None or insert_at == late_at:
            together = share_steps(functions + late, self.aliases)
            return self._place(out, late_at, together) if together else out
        functions, late = share_steps(functions, self.aliases), share_steps(late, self.aliases)
        if late:
            out = self._place(out, late_at, late)
        return self._place(out, insert_at, functions) if functions else out

    def _place(self, out: list[cst.BaseStatement], at: int, functions: list[cst.FunctionDef]) -> list[cst.BaseStatement]:
        """Insert step functions before `out[at]`, blank lines as PEP 8 has them."""
        following = out[at:]
        if following:
            lead = cg.comments(following[0].leading_lines)
            following[0] = following[0].with_changes(leading_lines=cg.blank(self.gap) + lead)
        placed = [
            fn.with_changes(leading_lines=cg.blank(self.gap if at or i else 0) + cg.comments(fn.leading_lines))
            for i, fn in enumerate(functions)
        ]
        return out[:at] + placed + following

    def _emit_block(self, item: Item) -> tuple[list[cst.BaseStatement], list[cst.FunctionDef]] | None:
        """`if __name__ == '__main__':` shares the module scope; a function that opens a
        Session is a scope of its own (its steps become nested functions)."""
        stmt = item.stmt
        if isinstance(stmt, cst.If) and _is_main_guard(stmt) and self._creates_session(stmt):
            inner = self._process(list(stmt.body.body), top=False)
            return [stmt.with_changes(body=stmt.body.with_changes(body=inner))], []
        if isinstance(stmt, cst.ClassDef):
            stmt = inline_builder_methods(stmt, self.module, self.lines, self.findings)
        if isinstance(stmt, cst.ClassDef) and is_graph_class(stmt, self._builds_graph):
            converted, info = convert_class(stmt, self._class_move, self.lines, self._external_runs(stmt.name.value))
            self.graph_classes[info.name] = info
            self.fixed(SESSION_RULE.id, stmt, f"class {info.name}: graph moved into step functions")
            return converted, []
        if isinstance(stmt, cst.FunctionDef) and self._creates_session(stmt):
            if self.scope.nodes and self._may_run_again(stmt):
                raise Unsupported(SESSION_RULE.id, self.line(stmt), f"{stmt.name.value}() opens a Session over the "
                                  "module's graph and may run more than once (each TF1 session started the "
                                  "variables afresh)")
            # the graph built above is the function's too (module-level tensors it runs); what
            # its steps take counts as run for the module
            outer = Scope(nodes=list(self.scope.nodes), current=dict(self.scope.current),
                          functions=dict(self.scope.functions), statements=set(self.scope.statements),
                          inside_statements=set(self.scope.inside_statements))
            sub = ProgramMove(
                self.module, self.aliases, self.lines, self.findings, scope=outer, sliced=self.sliced,
                used_names=self.used_names, suffixed=self.suffixed, models=self.models, gap=1, graph_classes=self.graph_classes,
                summary_kinds=self.summary_kinds, summary_helpers=self.summary_helpers,
                helper_taken=self.helper_taken, inlined_calls=self.inlined_calls, new_imports=self.new_imports,
            helper_sources=self.helper_sources,
                session_params=self.session_params, variable_factories=self.variable_factories,
            )
            inner = sub._process(list(stmt.body.body), top=True)
            return [stmt.with_changes(body=stmt.body.with_changes(body=inner))], []
        return None

    def _external_runs(self, cls: str) -> list[ExternalRun]:
        """Each `sess.run(inst.attr, {inst.ph: ...})` on an instance `inst = cls(...)` (or
        `self.inst = cls(...)`): the class makes a step function for each (for all of the
        program's files when the files importing the class's module were named)."""
        found = list(self.outside_runs.get(cls, ()))
        found += [run for run in outside_runs(self.module, {cls}).get(cls, []) if run not in found]
        return found

    def _class_move(self) -> ProgramMove:
        return ProgramMove(
            self.module, self.aliases, self.lines, self.findings,
            used_names=self.used_names, suffixed=self.suffixed, models=self.models, gap=1, class_mode=True,
            graph_classes=self.graph_classes,
            summary_kinds=self.summary_kinds, summary_helpers=self.summary_helpers,
            helper_taken=self.helper_taken, inlined_calls=self.inlined_calls, new_imports=self.new_imports,
            helper_sources=self.helper_sources,
        )

    def _builds_graph(self, node: cst.CSTNode) -> bool:
        graph_calls = SESSION_CALLS | {"placeholder", "get_variable"}
        return any(self.aliases.resolve(c.func) in graph_calls for c in calls_in(node))

    def _may_run_again(self, func: cst.FunctionDef) -> bool:
        """Is the function named more than once, or in a loop (`tf.app.run()` calls `main`
        once, naming nothing)?"""
        name = func.name.value
        reads = [n for n in names_read(self.module) if n.value == name and n is not func.name]
        loops = memoised_walk("loops", self.module, _loops)
        return len(reads) > 1 or any(name in {n.value for n in names_read(loop)} for loop in loops)

    def _creates_session(self, node: cst.CSTNode) -> bool:
        return any(self.aliases.resolve(c.func) in SESSION_CALLS for c in calls_in(node))

    def _calls_deferred(self, stmt: cst.BaseStatement, deferred: list[tuple[int, cst.FunctionDef]]) -> bool:
        """Does a statement of the driver call a function of this block that runs sessions?"""
        names = {func.name.value for _, func in deferred}
        return bool(names) and not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and any(
            isinstance(c.func, cst.Name) and c.func.value in names for c in calls_in(stmt)
        )

    def _defines_graph(self, item: Item) -> bool:
        return id(item.stmt) in self.scope.statements or self._is_converted(item)

    def _is_converted(self, item: Item) -> bool:
        assert self.models is not None
        name = getattr(item.stmt, "name", None)
        return name is not None and (
            name.value in self.models.model_instances or name.value in self.models.layer_classes
            or name.value in self.models.dropped_params
        )

    def _unrun_functions(self) -> list[cst.FunctionDef]:
        """Tensors built but never run keep their code as functions of their own (not called).

        Each function is made for the last unrun tensor no other unrun one reads (the last
        unrun one when all are read), and takes its backward slice out of the unrun ones. The
        readers of each node are counted and the unread tensors kept in a heap, so a module
        with many unrun tensors costs one pass over them, not one per function.
        """
        unused = [n for n in self.scope.nodes if n.kind in INSIDE and id(n) not in self.sliced]
        at = {id(n): i for i, n in enumerate(unused)}
        readers = Counter(id(d) for n in unused for d in n.deps)
        unread = [-i for i, n in enumerate(unused) if not readers[id(n)]]  # a max-heap of positions
        heapq.heapify(unread)
        last = len(unused) - 1
        made: list[cst.FunctionDef] = []
        while True:
            while last >= 0 and id(unused[last]) in self.sliced:
                last -= 1
            if last < 0:
                return made
            while unread and id(unused[-unread[0]]) in self.sliced:
                heapq.heappop(unread)
            sink = unused[-unread[0]] if unread else unused[last]
            sliced_before = len(self.sliced)
            fn = steps.make_function(self, cst.Name(sink.name), [sink], sink.value)
            for key in itertools.islice(reversed(self.sliced), len(self.sliced) - sliced_before):
                if key in at:
                    for dep in unused[at[key]].deps:
                        readers[id(dep)] -= 1
                        if not readers[id(dep)] and id(dep) in at:
                            heapq.heappush(unread, -at[id(dep)])
            self.functions[sink.name] = fn
            made.append(fn.definition)
            self.findings.append(Finding(
                SESSION_RULE.id, self.line(sink.stmt), 0,
                f"{sink.name} was built but never run; its code is kept in {fn.name}(), not called",
                "info",
            ))

    def _moved(self, item: Item) -> bool:
        """True when the statement went into a step function (its comments went with it)."""
        return id(item.stmt) in self.scope.inside_statements

    def _emit(self, item: Item) -> tuple[list[cst.BaseStatement], list[cst.FunctionDef]]:
        stmt = item.stmt
        if is_skipped(stmt):
            return [stmt], []
        if starts_file(stmt):
            self.tf_imported = False  # each file of the program imports TensorFlow itself
        replacement = v2_import(stmt)
        if replacement is not None:
            if replacement is not stmt:
                self.fixed(IMPORT_RULE.id, stmt, "TF2 import")
            if self.tf_imported:
                return [], []
            self.tf_imported = True
            return [replacement], []
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in self.summary_helpers:
            self.fixed(SUMMARIES_RULE.id, stmt, f"{stmt.name.value}() removed: inlined where it was called")
            return [], []
        if isinstance(stmt, cst.FunctionDef):
            assert self.models is not None
            self.scope.functions[stmt.name.value] = _globals_read(stmt)
            stmt = get_variable_factory(stmt, self.aliases, self.lines, self.findings) or stmt
            converted = self.models.convert_function(stmt, self.scope)
            if converted is not None:
                return converted, []
            if any(self.aliases.resolve(c.func) == "Variable" for c in calls_in(stmt)):
                self.variable_factories[stmt.name.value] = returned_structure(stmt, self.aliases)
            if run_sites.contains_run_site(self, stmt) or run_sites.reads_session(self, stmt):
                return driver.emit_driver(self, stmt)
            deferred = steps.deferred_updates(self, stmt)
            if deferred is not None:
                return [deferred], []
            return [stmt], []
        if not isinstance(stmt, cst.ClassDef):
            seeding.track_seeds(self, stmt)
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
            small = stmt.body[0]
            if is_mode_call(small, self.aliases):
                self.fixed(IMPORT_RULE.id, stmt, "graph-mode switch removed")
                return [], []
            if isinstance(small, cst.AugAssign):
                small = _as_assign(small)
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                node = classify.classify(self, small, stmt, item)
                if node is not None:
                    _check_graph_reads(self, stmt)
                    return node_statements.emit_node(self, node, item), []
            if isinstance(small, cst.Expr) and summary_ops.summary_entries(self, small.value) is not None:
                # `tf.summary.scalar('loss', loss)` only registers with merge_all.
                self.scope.add(summary_ops.summary_node(self, (self.fresh("summary"),), stmt, small.value, item.names))
                return [], []
        computed = loop_node(stmt, self.scope, len(self.scope.nodes), partial(run_sites.contains_run_site, self))
        if computed is not None:
            _check_graph_reads(self, stmt)
            classify.check_rebinding(self, computed, item)
            self.scope.add(computed)
            return node_statements.emit_node(self, computed, item), []
        loop = summary_ops.summary_loop(self, stmt)
        if loop is not None:
            for call in loop[1]:
                self.scope.add(summary_ops.summary_node(self, (self.fresh("summary"),), stmt, call, item.names, loop[0]))
            return [], []
        if any(is_random(c, self.aliases) for c in calls_in(stmt)):
            self.op_seeds.lose()  # a run-time random op: the graph's count is no longer known
        return driver.emit_driver(self, stmt)


def _check_graph_reads(move: MoveState, stmt: cst.BaseStatement) -> None:
    """Graph code reading a name the driver bound again reads that value in TF1, not the
    tensor the name held before: unmodelled."""
    for name in names_read(stmt):
        if rebound_by_driver(move, name.value):
            raise Unsupported(SESSION_RULE.id, move.line(stmt),
                              f"{name.value} is bound by the driver and then read by graph code")


def _globals_read(func: cst.FunctionDef) -> list[str]:
    """Names a function reads from the module: not its parameters or its own assignments."""
    params = func.params
    local = {p.name.value for p in [*params.params, *params.posonly_params, *params.kwonly_params]}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            local.add(star.name.value)
    bound = bound_names(func.body)
    local |= {n.value for n in names_read(func.body) if id(n) in bound}
    return [n.value for n in names_read(func.body) if n.value not in local]


def _runs_by_owner(node: cst.CSTNode) -> dict[str, list[tuple[int, cst.Call]]]:
    """`<session>.run(...)` calls under ``node`` (numbered in order) by the one instance whose
    attributes they fetch (`inst` of `sess.run([inst.a, inst.b])`, `self.inst` of
    `self.sess.run(self.inst.a)`)."""
    index: dict[str, list[tuple[int, cst.Call]]] = {}
    merges = run_sites.merged_summary_names(node)  # type: ignore[arg-type]
    for number, call in enumerate(calls_by_callee(node).get(".run", [])):
        if not call.args or call.args[0].keyword is not None:
            continue
        fetch = call.args[0].value
        elements = [e.value for e in fetch.elements] if isinstance(fetch, (cst.List, cst.Tuple)) and fetch.elements else [fetch]
        owners = {run_sites.instance_owner(e) for e in elements if not (isinstance(e, cst.Name) and e.value in merges)}
        if len(owners) == 1 and None not in owners:
            index.setdefault(owners.pop(), []).append((number, call))  # type: ignore[arg-type]
    return index


def outside_runs(module: cst.Module, classes: set[str]) -> dict[str, list[ExternalRun]]:
    """The run sites on instances of these classes in a module, in order, by class."""
    instances = memoised_walk("instances", module, _instances_by_class)
    runs = memoised_walk("runs by owner", module, _runs_by_owner)
    targets = memoised_walk("run targets", module, _run_targets)
    out: dict[str, list[ExternalRun]] = {}
    for cls in sorted(classes):
        made = instances.get(cls, set())
        found: list[ExternalRun] = []
        for _, call in sorted((p for i in made for p in runs.get(i, [])), key=lambda p: p[0]):
            site = run_sites.instance_run(call, made, targets.get(id(call)), run_sites.merged_summary_names(module))
            if site is not None and site not in found:
                found.append(site)
        if found:
            out[cls] = found
    return out


def _run_targets(node: cst.CSTNode) -> dict[int, cst.BaseAssignTargetExpression]:
    """What each call assigned whole to one target under ``node`` is unpacked into, by its id."""
    return {id(a.value): a.targets[0].target for a in memoised_walk("assigns", node, assigns_in)
            if len(a.targets) == 1 and isinstance(a.value, cst.Call)}


def _loops(module: cst.Module) -> list[cst.CSTNode]:
    return [n for n in walk(module) if isinstance(n, (cst.For, cst.While))]


def _is_main_guard(stmt: cst.If) -> bool:
    test = stmt.test
    return (
        isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name)
        and test.left.value == "__name__" and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].comparator, cst.SimpleString)
        and test.comparisons[0].comparator.evaluated_value == "__main__"
    )


def _as_assign(aug: cst.AugAssign) -> cst.AugAssign | cst.Assign:
    """`loss += 0.1 * reg` read as `loss = loss + 0.1 * reg` (a graph tensor bound again from
    itself); the statement keeps its own spelling, only its meaning is read this way."""
    operator = AUGMENTED.get(type(aug.operator))
    if operator is None or not isinstance(aug.target, cst.Name):
        return aug
    value = cst.BinaryOperation(aug.target, operator(), aug.value, lpar=[], rpar=[])
    return cst.Assign(targets=[cst.AssignTarget(aug.target)], value=value)


def _instances_by_class(node: cst.CSTNode) -> dict[str, set[str]]:
    """The instances made by `name = Cls(...)` (or `self.name = Cls(...)`, spelled
    `self.name`) under ``node``, by the plain name called."""
    index: dict[str, set[str]] = {}
    for assign in memoised_walk("assigns", node, assigns_in):
        value, targets = assign.value, assign.targets
        if not (len(targets) == 1 and isinstance(value, cst.Call) and isinstance(value.func, cst.Name)):
            continue
        target = targets[0].target
        if isinstance(target, cst.Name):
            index.setdefault(value.func.value, set()).add(target.value)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
            index.setdefault(value.func.value, set()).add(f"self.{target.attr.value}")
    return index
