"""The driver's code: loops and prints keep their place, their `sess.run` calls become
calls of the step functions, feeds become arguments and sessions go.
"""

from __future__ import annotations

from functools import partial

import libcst as cst

from .. import codegen as cg
from .. import feeds as feed_vars
from ..codegen import code
from ..eager_reads import Reads, find_reads
from ..graph import INSIDE, calls_in, names_read, refers_to_tf
from ..graph_classes import PREFIX as SELF_PREFIX
from ..report import Unsupported
from ..rules.optimizers import RULE as OPTIMIZER_RULE
from ..rules.saver import RULE as SAVER_RULE
from ..rules.session import RULE as SESSION_RULE
from ..rules.summaries import RULE as SUMMARIES_RULE
from ..walk import transform, walk
from . import (
    classify,
    driver_summaries,
    eager_values,
    reinitialization,
    run_sites,
    savers,
    steps,
    summary_ops,
)
from .state import TRAIN_METHODS, MoveState, assigns_by_name, bound_names, rebound_by_driver


def emit_driver(move: MoveState, stmt: cst.BaseStatement) -> tuple[list[cst.BaseStatement], list[cst.FunctionDef]]:
    """A driver statement with its run sites as step calls; a function's Savers are known
    while it is converted."""
    outer = move.driver_savers
    move.driver_savers = {**outer, **savers.driver_savers(move, stmt)}
    try:
        return _emit_driver(move, stmt)
    finally:
        move.driver_savers = outer


def _emit_driver(move: MoveState, stmt: cst.BaseStatement) -> tuple[list[cst.BaseStatement], list[cst.FunctionDef]]:
    new_functions: list[cst.FunctionDef] = []
    record_instances(move, stmt)
    made_savers = {id(c) for c in move.driver_savers.values()}
    top = not isinstance(stmt, (cst.FunctionDef, cst.ClassDef))
    again = run_sites.reinitializations(move, stmt, top and move.ran)
    move.ran = move.ran or (top and run_sites.runs_graph(move, stmt))

    class Driver(cst.CSTTransformer):
        def __init__(self) -> None:
            super().__init__()
            self.dropped: list[list[cst.EmptyLine]] = []  # per open block: comments of statements removed

        def _remove(self, original: cst.SimpleStatementLine) -> cst.RemovalSentinel:
            if self.dropped:  # inside a block: the next statement (or the block's end) keeps them
                self.dropped[-1] += [*original.leading_lines, *cg.inner_comments(original)]
            return cst.RemovalSentinel.REMOVE

        def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
            self.dropped.append([])
            return True

        def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
            left = cg.comments(self.dropped.pop())
            return updated.with_changes(footer=[*left, *updated.footer]) if left else updated

        def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):  # type: ignore[override]
            result = super().on_leave(original, updated)
            pending = self.dropped[-1] if self.dropped and isinstance(original, cst.BaseStatement) else []
            if not pending or isinstance(result, cst.RemovalSentinel):
                return result
            nodes = list(result.nodes) if isinstance(result, cst.FlattenSentinel) else [result]
            nodes[0] = nodes[0].with_changes(leading_lines=cg.merge_leading(pending, list(nodes[0].leading_lines)))
            pending.clear()
            return cst.FlattenSentinel(nodes) if isinstance(result, cst.FlattenSentinel) else nodes[0]

        def leave_SimpleStatementLine(
            self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
        ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
            if id(original) in registered:
                replaced = driver_summaries.emitted(move, registered[id(original)])
                if replaced is None:
                    return self._remove(original)
                return replaced.with_changes(leading_lines=updated.leading_lines)
            if id(original) in lookups:
                move.fixed(SESSION_RULE.id, original, "default session lookup removed: its runs are step calls")
                return self._remove(original)
            if len(original.body) == 1 and isinstance(original.body[0], cst.Expr):
                call = original.body[0].value
                restart = run_sites.iterator_restart(move, call) if isinstance(call, cst.Call) else None
                if restart is not None:
                    return restart.with_changes(leading_lines=updated.leading_lines)
                if isinstance(call, cst.Call) and run_sites.is_noop_session_call(move, call):
                    if id(original) in again:
                        if not top:
                            raise Unsupported(SESSION_RULE.id, move.line(original),
                                              "variables initialized again after the graph ran")
                        assigned = reinitialization.reassignments(move, call, original)
                        move.fixed(SESSION_RULE.id, original, "initializer run again → its variables "
                                   "assigned their initial values")
                        first = assigned[0].with_changes(leading_lines=updated.leading_lines,
                                                           trailing_whitespace=updated.trailing_whitespace)
                        return cst.FlattenSentinel([first, *assigned[1:]])  # type: ignore[return-value]
                    move.fixed(SESSION_RULE.id, original, "initializer run / session close removed")
                    return self._remove(original)
                converted = updated.body[0].value  # type: ignore[attr-defined]
                write = summary_ops.summary_write(move, call, converted) if isinstance(call, cst.Call) else None
                if write is not None:
                    move.fixed(SUMMARIES_RULE.id, original, "add_summary → tf.summary writes at that step")
                    return write.with_changes(leading_lines=updated.leading_lines)  # type: ignore[return-value]
            return updated

        def visit_Call(self, node: cst.Call) -> bool:
            return True

        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            if id(original) in eager:
                return eager[id(original)]
            return feed_vars.string_key(original, keyed[id(original)]) if id(original) in keyed else updated

        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            return eager.get(id(original), updated)

        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            if id(original) in eager:
                return eager[id(original)]
            if id(original) in made_savers:
                move.fixed(SAVER_RULE.id, original, "tf.train.Saver → tf.train.Checkpoint")
                return cst.parse_expression(savers.driver_saver_source(move, original, move.line(original)))
            saver = savers.saver_call(move, original)
            if saver is not None:
                return saver
            sessions = {id(a.value) for a in run_sites.session_arguments(move, original)}
            if sessions:
                move.fixed(SESSION_RULE.id, original, "session argument passed as None (unused now)", "info")
                return updated.with_changes(args=[
                    new.with_changes(value=cst.Name("None")) if id(old.value) in sessions else new
                    for old, new in zip(original.args, updated.args, strict=True)
                ])
            site = run_sites.run_site(move, original)
            if site is None or run_sites.is_noop_session_call(move, original) or run_sites.initialized_iterator(move, original):
                return updated
            fetch, feed = site
            keep = [picked[original]] if original in picked else unpacked.get(original, (None, None))[0]
            return steps.call_for(
                move, fetch, feed, original, new_functions, discarded=original in discarded,
                keep=keep, eager_locals=eager_locals,
            )

        def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
            # `sess.run([loss, train])[0]`: the step returns only the item read
            return updated.value if original.value in picked else updated

        def leave_With(
            self, original: cst.With, updated: cst.With
        ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
            if id(original) not in session_withs or not isinstance(updated.body, cst.IndentedBlock):
                return updated
            move.fixed(SESSION_RULE.id, original, "session context unwrapped")
            return cst.FlattenSentinel(cg.unwrapped(updated))

        def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
            for call, (_, target) in unpacked.items():
                if original.value is call:
                    return updated.with_changes(targets=[cst.AssignTarget(target)])
            return updated

    discarded: set[cst.Call] = set()
    # `_, loss_value = sess.run([train_op, loss])`: the step returns only what is kept.
    unpacked: dict[cst.Call, tuple[list[int], cst.BaseAssignTargetExpression]] = {}
    picked: dict[cst.BaseExpression, int] = {}  # `sess.run([loss, train_op])[0]` -> 0

    session_withs = run_sites.session_with_ids(move, stmt)
    lookups = run_sites.default_session_lookups(move, stmt)
    registered = driver_summaries.register(move, stmt)
    eager_locals = eager_local_names(move, stmt)
    keyed = feed_vars.record(stmt, move.feeds, partial(classify.is_placeholder, move))
    emitted_reads = driver_summaries.read_names(registered)
    reads = find_reads(stmt, move.scope, move.aliases, driver_allowed(move, stmt, keyed) | emitted_reads, bound_names(stmt))
    check_driver_refs(move, stmt, keyed, reads, emitted_reads)
    record_driver_bindings(move, stmt)
    eager_values.report_shown(move, reads)
    if not keyed and not registered and not reads.rewrites and not session_withs and not lookups and not any(
        run_sites.run_site(move, c) or run_sites.is_noop_session_call(move, c) or savers.saver_call(move, c)
        or run_sites.session_arguments(move, c) or summary_ops.summary_write(move, c)
        for c in calls_in(stmt)
    ):
        return [stmt], new_functions  # untouched: the original node keeps its positions
    prelude, eager = eager_values.read_eagerly(move, stmt, reads, new_functions)
    for node in walk(stmt):
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
            discarded.add(node.value)
        elif isinstance(node, cst.Assign) and (found := run_sites.unpacked_ops(move, node)) is not None:
            unpacked[node.value] = found  # type: ignore[index]
        elif isinstance(node, cst.Subscript) and (index := run_sites.picked_item(move, node)) is not None:
            picked[node.value] = index
    new = transform(stmt, Driver())
    if isinstance(new, cst.RemovalSentinel):
        return prelude, new_functions
    if isinstance(new, cst.FlattenSentinel):
        return prelude + list(new.nodes), new_functions
    if prelude and isinstance(new, cst.FunctionDef):
        # The variables are listed when the function runs: build them on entry.
        body = list(new.body.body)
        at = 1 if body and cg.is_docstring(body[0]) else 0
        return [new.with_changes(body=new.body.with_changes(body=body[:at] + prelude + body[at:]))], new_functions
    if prelude:
        prelude[0] = prelude[0].with_changes(leading_lines=new.leading_lines)  # type: ignore[union-attr]
        new = new.with_changes(leading_lines=[])  # type: ignore[union-attr]
    return [*prelude, new], new_functions  # type: ignore[list-item]


def record_instances(move: MoveState, stmt: cst.BaseStatement) -> None:
    """`model = GraphClass(...)` at this level: its session arguments and variables."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)):
        return
    assign = stmt.body[0]
    value, targets = assign.value, assign.targets
    if (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
            and value.func.value in move.graph_classes and len(targets) == 1
            and isinstance(targets[0].target, cst.Name)):
        move.graph_instances[targets[0].target.value] = move.graph_classes[value.func.value]


def record_driver_bindings(move: MoveState, stmt: cst.BaseStatement) -> None:
    """Names a top-level driver statement binds: from here on they hold its values, not the
    graph tensors of the same name (`x = sess.run(x)`; `plt.plot(x)` plots the array)."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return
    ids = bound_names(stmt)
    for node in walk(stmt):
        if isinstance(node, cst.Name) and id(node) in ids:
            move.driver_bound[node.value] = len(move.scope.nodes)


def driver_allowed(move: MoveState, stmt: cst.BaseStatement, keyed: dict[int, list[str]]) -> set[int]:
    """Ids of the names a driver statement may read: inside run sites, bound, feed keys."""
    allowed: set[int] = set(keyed) | bound_names(stmt) | read_after_binding(stmt)
    allowed.update(id(name) for name in names_read(stmt) if rebound_by_driver(move, name.value))
    for call in calls_in(stmt):
        if run_sites.run_site(move, call) is not None or run_sites.is_noop_session_call(move, call) or savers.saver_call(move, call):
            allowed.update(id(name) for name in names_read(call))
        allowed.update(id(arg.value) for arg in run_sites.session_arguments(move, call))
    return allowed


def read_after_binding(stmt: cst.BaseStatement) -> set[int]:
    """Ids of the names a block inside `stmt` reads after an earlier statement of it (or of a
    block around it) bound them: in `if ckpt: acc = sess.run(acc); return acc` the return reads
    the value the run gave, not the graph tensor (a statement's own reads come before its
    bindings)."""
    found: set[int] = set()

    def visit(node: cst.CSTNode, bound: frozenset[str]) -> None:
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return  # a scope of its own
        if isinstance(node, cst.Name) and node.value in bound:
            found.add(id(node))
        if isinstance(node, cst.IndentedBlock):
            names = set(bound)
            for inner in node.body:
                visit(inner, frozenset(names))
                ids = bound_names(inner)
                names |= {n.value for n in walk(inner) if isinstance(n, cst.Name) and id(n) in ids}
            return
        for child in node.children:
            visit(child, bound)

    visit(stmt, frozenset())
    return found


def eager_local_names(move: MoveState, stmt: cst.BaseStatement) -> frozenset[str]:
    """Names a driver function binds, once, to TF ops on values that read no graph node
    (`accuracy = tf.reduce_mean(tf.cast(tf.equal(y_run, y), tf.float32))`): in TF2 these
    are eager tensors already computed."""
    if not isinstance(stmt, cst.FunctionDef):
        return frozenset()
    return frozenset(
        name for name, (assign, *others) in assigns_by_name(stmt).items()
        if not others and refers_to_tf(assign.value, move.aliases)
        and not move.scope.deps_of(assign.value) and not run_sites.contains_run_site(move, assign.value)
    )


def check_driver_refs(
    move: MoveState, stmt: cst.BaseStatement, keyed: dict[int, list[str]], reads: Reads, emitted: set[int],
) -> None:
    """Tensors may be read outside a run only through run sites or as eager reads; anything
    else is unmodelled. Names a statement binds (`_, loss_value = ...`) are not reads; feed
    keys become strings; `emitted` are read by statements rewritten whole."""
    allowed = driver_allowed(move, stmt, keyed) | set(reads.tensors) | emitted
    for call in calls_in(stmt):
        func = call.func
        if (isinstance(func, cst.Attribute) and func.attr.value in TRAIN_METHODS
                and isinstance(func.value, cst.Name)
                and (opt := move.scope.lookup(func.value.value)) is not None and opt.kind == "optimizer"):
            # A graph statement inside a loop or branch: it would run per iteration here.
            raise Unsupported(
                OPTIMIZER_RULE.id, move.line(stmt), f"{func.value.value}.{func.attr.value} outside the graph statements",
            )
    for name in names_read(stmt):
        if id(name) in allowed:
            continue
        node = move.scope.lookup(name.value)
        if node is not None and (node.kind in INSIDE or node.kind in ("placeholder", "collection")):
            raise Unsupported(
                SESSION_RULE.id, move.line(stmt),
                f"graph tensor {name.value.replace(SELF_PREFIX, 'self.')} used outside a session run",
            )
        if name.value in move.scope.sessions:
            use = session_use(stmt, name)
            raise Unsupported(SESSION_RULE.id, move.line(stmt), f"session {name.value} used outside run(){use}")


def session_use(stmt: cst.BaseStatement, name: cst.Name) -> str:
    """How a statement uses a session outside `run()`, for the finding: `: sess.graph`,
    `: passed to saver.restore()`; empty when neither."""
    for node in walk(stmt):
        if isinstance(node, cst.Attribute) and node.value is name:
            return f": {name.value}.{node.attr.value}"
        if isinstance(node, cst.Call) and any(a.value is name for a in node.args):
            return f": passed to {code(node.func)}()"
    return ""
