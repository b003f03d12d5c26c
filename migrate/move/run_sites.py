"""Run sites: the `sess.run(...)`/`.eval()` calls of the driver, what they fetch and feed,
and the session calls that go (initializers, closes, session contexts and arguments).
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import (
    INSIDE,
    Node,
    backward_slice,
    call_args,
    calls_by_callee,
    calls_in,
    memoised_walk,
    names_read,
    valueless,
)
from ..graph_classes import SUMMARIES, ExternalRun, ExternalStep
from ..op_seeds import is_random, uncounted
from ..report import Unsupported
from ..rules.assign import ASSIGN_CALLS
from ..rules.data import RULE as DATA_RULE
from ..rules.session import INIT_CALLS, SESSION_CALLS
from ..walk import walk
from . import savers
from .state import MoveState, binding_counts


def session_with_ids(move: MoveState, stmt: cst.BaseStatement) -> set[int]:
    """Ids of the `with tf.Session() as s:` blocks nested in driver code (a session per
    loop round, say): they unwrap like top-level ones, `s` taken as a session."""
    found: set[int] = set()
    for node in walk(stmt):
        if isinstance(node, cst.With) and all(
            isinstance(i.item, cst.Call) and move.aliases.resolve(i.item.func) in SESSION_CALLS
            for i in node.items
        ):
            found.add(id(node))
            move.scope.sessions.update(
                i.asname.name.value for i in node.items
                if i.asname is not None and isinstance(i.asname.name, cst.Name)
            )
    return found


def unpacked_ops(move: MoveState, assign: cst.Assign) -> tuple[list[int], cst.BaseAssignTargetExpression] | None:
    """(kept positions, new target) when a run's op results are unpacked into `_`."""
    if len(assign.targets) != 1 or not isinstance(assign.value, cst.Call):
        return None
    target = assign.targets[0].target
    site = run_site(move, assign.value)
    if site is None or not isinstance(target, (cst.Tuple, cst.List)):
        return None
    outside = instance_run(assign.value, set(move.graph_instances), target, merged_summary_names(move.module))
    if outside is not None:
        step = instance_step_of(move, outside, assign.value)
        return None if step is None or step.kept is None else (step.kept, _kept_target(target, step.kept))
    fetch = site[0]
    if not isinstance(fetch, (cst.List, cst.Tuple)) or len(fetch.elements) != len(target.elements):
        return None
    keep: list[int] = []
    for i, (node, t) in enumerate(zip(element_nodes(move, fetch), target.elements)):
        if node is not None and valueless(node):
            if not (isinstance(t.value, cst.Name) and t.value.value == "_"):
                return None
        else:
            keep.append(i)
    if not keep or len(keep) == len(fetch.elements):
        return None
    return keep, _kept_target(target, keep)


def _kept_target(target: cst.Tuple | cst.List, keep: list[int]) -> cst.BaseAssignTargetExpression:
    """The unpacking target with only the kept positions."""
    kept = [target.elements[i].value for i in keep]
    return kept[0] if len(kept) == 1 else target.with_changes(  # type: ignore[return-value]
        elements=[e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in (target.elements[i] for i in keep)]
    )


def instance_step_of(move: MoveState, run: ExternalRun, site: cst.Call, keep: list[int] | None = None) -> ExternalStep | None:
    """The step function the converted class of the site's instance made for it (`keep`: the
    one returning just those positions, made for a site unpacking its ops into `_`)."""
    owner = instance_owner(site_receiver(move, site))
    if owner not in move.graph_instances:
        return None
    runs = move.graph_instances[owner].runs
    if keep is None:
        return runs.get(run.key)
    return next((step for step in runs.values() if (step.run.fetch, sorted(step.run.fed)) == (run.fetch, sorted(run.fed))
                 and step.kept == keep), None)


def element_nodes(move: MoveState, seq: cst.List | cst.Tuple) -> list[Node | None]:
    """The graph node each element of a fetched list names (None: not a plain name of one)."""
    return [move.scope.lookup(e.value.value) if isinstance(e.value, cst.Name) else None for e in seq.elements]


def picked_item(move: MoveState, subscript: cst.Subscript) -> int | None:
    """`i` of `sess.run([a, train_op])[i]` where a train op is fetched beside the item
    read: the step need not return the op's None."""
    if not isinstance(subscript.value, cst.Call) or len(subscript.slice) != 1:
        return None
    index = subscript.slice[0].slice
    site = run_site(move, subscript.value)
    if site is None or not isinstance(index, cst.Index) or not isinstance(index.value, cst.Integer):
        return None
    fetch = site[0]
    if not isinstance(fetch, (cst.List, cst.Tuple)) or not fetch.elements:
        return None
    nodes = element_nodes(move, fetch)
    i = int(index.value.value, 0)
    if not 0 <= i < len(nodes) or nodes[i] is None or valueless(nodes[i]):  # type: ignore[arg-type]
        return None
    return i if any(n is not None and valueless(n) for n in nodes) else None


def reads_session(move: MoveState, node: cst.CSTNode) -> bool:
    return any(n.value in move.scope.sessions for n in names_read(node))


def contains_run_site(move: MoveState, expr: cst.CSTNode) -> bool:
    return any(
        run_site(move, c) is not None or is_noop_session_call(move, c) or savers.saver_call(move, c) is not None
        for c in calls_in(expr)
    )


def initialized_iterator(move: MoveState, call: cst.Call) -> Node | None:
    """The initializable iterator whose initializer a session run runs, if it does."""
    site = run_site(move, call)
    fetch = site[0] if site is not None else None
    if not (isinstance(fetch, cst.Attribute) and fetch.attr.value == "initializer"
            and isinstance(fetch.value, cst.Name)):
        return None
    iterator = move.scope.lookup(fetch.value.value)
    return iterator if iterator is not None and iterator.info.get("initializable") else None


def iterator_restart(move: MoveState, call: cst.Call) -> cst.SimpleStatementLine | None:
    """`sess.run(iterator.initializer, feed)` → `iterator = iter(make_dataset(<fed values>))`."""
    iterator = initialized_iterator(move, call)
    if iterator is None:
        return None
    feed = run_site(move, call)[1]  # type: ignore[index]
    dataset = move.scope.lookup(code(iterator.info["dataset"]))  # type: ignore[arg-type]
    fed: list[Node] = dataset.info.get("placeholders", []) if dataset is not None else []  # type: ignore[assignment]
    feeds: dict[str, str] = {}
    if feed is not None:
        if not isinstance(feed, cst.Dict) or not all(
            isinstance(e, cst.DictElement) and isinstance(e.key, cst.Name) for e in feed.elements
        ):
            raise Unsupported(DATA_RULE.id, move.line(call), "initializer feed_dict is not a dict literal")
        feeds = {e.key.value: code(e.value) for e in feed.elements}  # type: ignore[union-attr]
    if set(feeds) != {n.name for n in fed}:
        raise Unsupported(DATA_RULE.id, move.line(call), "initializer run without a value for each placeholder")
    args = ", ".join(feeds[n.name] for n in fed)
    source = f"iter({dataset.info['maker']}({args}))" if fed else f"iter({code(iterator.info['dataset'])})"  # type: ignore[union-attr,arg-type]
    move.fixed(DATA_RULE.id, call, "iterator initializer run → a new Python iteration over the dataset")
    return cst.parse_statement(f"{iterator.name} = {source}\n")  # type: ignore[return-value]


def default_session_lookups(move: MoveState, stmt: cst.BaseStatement) -> set[int]:
    """Ids of the statements of `stmt`'s functions that take TF1's default session for a
    session parameter (`sess = sess or tf.get_default_session()`) whose every other read is
    a `sess.run(...)`: the runs become step calls, so the lookup goes."""
    def lookup(value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Call) and move.aliases.resolve(value.func) == "get_default_session"

    found: set[int] = set()
    for func in (n for n in walk(stmt) if isinstance(n, cst.FunctionDef)):
        for line in (n for n in walk(func.body) if isinstance(n, cst.SimpleStatementLine) and len(n.body) == 1):
            assign = line.body[0]
            if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
                    and isinstance(assign.targets[0].target, cst.Name)):
                continue
            name, value = assign.targets[0].target.value, assign.value
            if not (lookup(value) or isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or)
                    and isinstance(value.left, cst.Name) and value.left.value == name and lookup(value.right)):
                continue
            runs = {id(c.func.value) for c in calls_in(func) if isinstance(c.func, cst.Attribute)
                    and c.func.attr.value == "run" and isinstance(c.func.value, cst.Name) and c.func.value.value == name}
            skip = {id(m) for m in walk(line)} | {id(m) for m in walk(func.params)} | {id(func.name)}
            reads = [n for n in names_read(func) if n.value == name and id(n) not in skip]
            if all(id(n) in runs for n in reads):
                found.add(id(line))
    return found


def is_noop_session_call(move: MoveState, call: cst.Call) -> bool:
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    receiver = func.value
    if func.attr.value == "reuse_variables":
        # Reuse is implicit once layers are objects: the same instance is called again.
        if isinstance(receiver, cst.Name):
            return receiver.value in move.scope_handles
        return isinstance(receiver, cst.Call) and move.aliases.resolve(receiver.func) == "get_variable_scope"
    if func.attr.value == "close" and isinstance(receiver, cst.Name):
        return receiver.value in move.scope.sessions
    if func.attr.value == "run":
        if isinstance(receiver, cst.Name) and (receiver.value in move.scope.sessions or (
            move.class_mode and move.scope.lookup(receiver.value) is None
        )):
            # A method's session is a parameter: `sess.run(<initializer>)` is known by its fetch.
            fetch = call.args[0].value if call.args else None
            return fetch is not None and is_init(move, fetch)
        return is_init(move, receiver)
    return False


#: Variable methods and TF functions that write a variable.
_WRITES = ASSIGN_CALLS | {"scatter_update", "scatter_add", "scatter_sub"}


def runs_graph(move: MoveState, node: cst.CSTNode) -> bool:
    """Does the code run graph ops that may change variables (a train op, an assignment, a
    group, a model's step), not only read them?"""
    for call in calls_in(node):
        site = run_site(move, call)
        if site is None or is_noop_session_call(move, call):
            continue
        if instance_run(call, set(move.graph_instances), merges=merged_summary_names(move.module)) is not None:
            return True  # a converted class's step: what it runs is the class's
        roots = move.scope.deps_of(site[0])
        if not roots or any(_writes(move, n) for n in [*roots, *backward_slice(roots)[0]]):
            return True
    return False


def _writes(move: MoveState, node: Node) -> bool:
    if node.kind in ("train", "updates", "averages") or valueless(node):
        return True
    func = node.value.func if isinstance(node.value, cst.Call) else None
    return func is not None and (
        (isinstance(func, cst.Attribute) and func.attr.value in _WRITES) or move.aliases.resolve(func) in _WRITES)


def reinitializations(move: MoveState, stmt: cst.BaseStatement, ran: bool) -> set[int]:
    """Ids of the initializer-run statements under ``stmt`` that may run after a step of the
    graph ran (`ran`: one ran before ``stmt``): after a statement running one in the same or
    an enclosing block, or in a loop that runs one. TF1 set the variables back to their
    initial values there; TF2 has no such run to drop."""
    found: set[int] = set()

    def visit(stmts: list[cst.BaseStatement], before: bool, looped: bool) -> None:
        for s in stmts:
            if isinstance(s, (cst.FunctionDef, cst.ClassDef)):
                continue
            if (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr)
                    and isinstance(call := s.body[0].value, cst.Call) and is_noop_session_call(move, call)
                    and isinstance(call.func, cst.Attribute) and call.func.attr.value == "run" and (before or looped)):
                found.add(id(s))
            ran = runs_graph(move, s)
            for block in _blocks(s):
                visit(block, before, looped or (ran and isinstance(s, (cst.For, cst.While))))
            before = before or ran

    visit(list(stmt.body.body) if isinstance(stmt, cst.FunctionDef) else [stmt], ran, False)  # type: ignore[union-attr]
    return found


def _blocks(stmt: cst.BaseStatement) -> list[list[cst.BaseStatement]]:
    """The statement lists a compound statement holds (its body, else, handlers, finally)."""
    out: list[list[cst.BaseStatement]] = []

    def add(part: object) -> None:
        if isinstance(part, cst.If):
            out.append([part])  # an `elif`
        elif isinstance(part, (cst.Else, cst.Finally, cst.ExceptHandler)):
            add(part.body)
        elif isinstance(part, cst.IndentedBlock):
            out.append(list(part.body))

    if not isinstance(stmt, cst.SimpleStatementLine):
        add(getattr(stmt, "body", None))
        add(getattr(stmt, "orelse", None))
        for handler in getattr(stmt, "handlers", ()):
            add(handler)
        add(getattr(stmt, "finalbody", None))
    return out


def is_init(move: MoveState, expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Call):
        return move.aliases.resolve(expr.func) in INIT_CALLS
    if isinstance(expr, cst.Name):
        node = move.scope.lookup(expr.value)
        return node is not None and node.kind == "init"
    if isinstance(expr, cst.Attribute) and expr.attr.value == "initializer" and isinstance(expr.value, cst.Name):
        # `sess.run(v.initializer)`: a tf.Variable holds its value once it is made
        node = move.scope.lookup(expr.value.value)
        return node is not None and node.kind == "variable"
    if isinstance(expr, (cst.List, cst.Tuple)) and expr.elements:
        return all(is_init(move, e.value) for e in expr.elements)
    return False


def run_site(move: MoveState, call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression | None] | None:
    """(fetches, feed_dict) of a session run, `t.eval()` or `op.run()`; None otherwise."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in ("run", "eval"):
        return None
    receiver = func.value
    kwargs = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    positional = [a.value for a in call.args if a.keyword is None]
    is_session = isinstance(receiver, cst.Name) and (
        receiver.value in move.scope.sessions
        or (move.class_mode and move.scope.lookup(receiver.value) is None and bool(positional)
            and bool(move.scope.deps_of(positional[0])))
    )
    if is_session:
        if func.attr.value != "run" or not positional:
            return None
        feed = kwargs.get("feed_dict", positional[1] if len(positional) > 1 else None)
        return positional[0], feed
    if isinstance(receiver, cst.Name):
        node = move.scope.lookup(receiver.value)
        if node is not None and node.kind in INSIDE | {"variable"}:
            return receiver, kwargs.get("feed_dict", positional[0] if positional else None)
    if (func.attr.value == "eval" and isinstance(receiver, cst.Call)
            and move.aliases.resolve(receiver.func) is not None):  # `tf.transpose(x).eval()`
        return receiver, kwargs.get("feed_dict", positional[0] if positional else None)
    return None


def eager_expression(move: MoveState, fetch: cst.BaseExpression) -> bool:
    """A TF call of values the program has, no graph tensor and no random draw: what TF1's
    session computed from it, TF2 computes where it stands."""
    return (isinstance(fetch, cst.Call) and move.aliases.resolve(fetch.func) is not None
            and not move.scope.deps_of(fetch)
            and not any(is_random(c, move.aliases) or uncounted(c, move.aliases) for c in calls_in(fetch)))


def session_arguments(move: MoveState, call: cst.Call) -> list[cst.Arg]:
    """The sessions a call passes to a converted class's method or to a module function that
    runs them (`do_eval(sess, data)`): sessions are gone, the argument becomes None."""
    sessions = [a for a in call.args if isinstance(a.value, cst.Name) and a.value.value in move.scope.sessions]
    if not sessions or graph_method_call(move, call):
        return sessions
    func = session_helper(move, call)
    if func is None:
        return []
    params = [p.name.value for p in func.params.params]
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args) or len(positional) > len(params):
        return []
    for arg in sessions:
        name = arg.keyword.value if arg.keyword is not None else params[positional.index(arg)]
        move.session_params.setdefault(func.name.value, set()).add(name)
    return sessions


def session_helper(move: MoveState, call: cst.Call) -> cst.FunctionDef | None:
    """The one function of this name in the module, running sessions, that `call` calls."""
    if not isinstance(call.func, cst.Name):
        return None
    defs = [d for d in memoised_walk("defs", move.module, _function_defs) if d.name.value == call.func.value]
    return defs[0] if len(defs) == 1 and has_run_calls(move, defs[0]) else None


def has_run_calls(move: MoveState, func: cst.FunctionDef) -> bool:
    """A def calling `.run(...)`/`.eval(...)`: its session use is resolved at the end."""
    callees = calls_by_callee(func)
    return ".run" in callees or ".eval" in callees


def graph_method_call(move: MoveState, call: cst.Call) -> bool:
    """A method call on a converted class instance (its session argument becomes None)."""
    func = call.func
    return (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            and func.value.value in move.graph_instances)


def _function_defs(module: cst.Module) -> list[cst.FunctionDef]:
    return [n for n in walk(module) if isinstance(n, cst.FunctionDef)]


def feed_of(call: cst.Call) -> cst.BaseExpression | None:
    args = call_args(call, ("fetches", "feed_dict"))
    return args.get("feed_dict")


def site_receiver(move: MoveState, site: cst.Call) -> cst.BaseExpression:
    """The first attribute an instance's run site fetches (`net.train` of `[merged, net.train]`)."""
    fetch = site.args[0].value
    if not isinstance(fetch, (cst.List, cst.Tuple)):
        return fetch
    merges = merged_summary_names(move.module)
    return next(e.value for e in fetch.elements if not (isinstance(e.value, cst.Name) and e.value.value in merges))


def instance_owner(expr: cst.BaseExpression) -> str | None:
    """The instance an attribute belongs to: `inst` of `inst.a`, `self.inst` of
    `self.inst.a` (a driver class holding the model it runs); None for anything else."""
    if not isinstance(expr, cst.Attribute):
        return None
    owner = expr.value
    if isinstance(owner, cst.Name):
        return owner.value
    if isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self":
        return f"self.{owner.attr.value}"
    return None


def merged_summary_names(module: cst.Module) -> frozenset[str]:
    """Names the module binds once, to `tf.summary.merge_all()`. A run fetching one beside an
    instance's attributes (`sess.run([net.train, merged], ...)`) fetches the summaries the
    instance's class made: the class's step returns them too."""
    def found(node: cst.Module) -> frozenset[str]:
        counts = binding_counts(node)
        return frozenset(
            t.target.value for n in walk(node) if isinstance(n, cst.Assign) and isinstance(n.value, cst.Call)
            and not n.value.args and code(n.value.func).endswith("summary.merge_all")
            for t in n.targets if isinstance(t.target, cst.Name) and counts[t.target.value] == 1
        )

    return memoised_walk("merged summaries", module, found)


def instance_run(
    call: cst.Call, instances: set[str], target: cst.BaseAssignTargetExpression | None = None,
    merges: frozenset[str] = frozenset(),
) -> ExternalRun | None:
    """`<session>.run(inst.attr, {inst.ph: value, ...})` on one of `instances` (`[a, b]` for a
    list of its attributes, a name of `merges` among them for the instance's summaries), with
    the positions `target` (what the result is assigned to) unpacks into `_`; None for any
    other call."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "run" and call.args):
        return None
    fetch = call.args[0].value
    if call.args[0].keyword is not None:
        return None
    elements = [e.value for e in fetch.elements] if isinstance(fetch, (cst.List, cst.Tuple)) and fetch.elements else [fetch]
    merged = [isinstance(e, cst.Name) and e.value in merges for e in elements]
    owners = {instance_owner(e) for e, m in zip(elements, merged, strict=True) if not m}
    if len(owners) != 1 or not owners <= instances or sum(merged) > 1:
        return None
    owner = owners.pop()
    attrs = ", ".join(SUMMARIES if m else e.attr.value for e, m in zip(elements, merged, strict=True))  # type: ignore[attr-defined]
    fetched = {cst.List: f"[{attrs}]", cst.Tuple: f"({attrs},)"}.get(type(fetch), attrs)  # type: ignore[call-overload]
    feed = feed_of(call)
    fed: list[str] = []
    if feed is not None:
        if not isinstance(feed, cst.Dict):
            return None
        for element in feed.elements:
            key = element.key if isinstance(element, cst.DictElement) else None
            if key is None or instance_owner(key) != owner:
                return None
            fed.append(key.attr.value)  # type: ignore[attr-defined]
    discarded: tuple[int, ...] = ()
    if (isinstance(fetch, (cst.List, cst.Tuple)) and isinstance(target, (cst.List, cst.Tuple))
            and len(target.elements) == len(elements)):
        discarded = tuple(i for i, t in enumerate(target.elements) if isinstance(t.value, cst.Name) and t.value.value == "_")
    return ExternalRun(fetched, tuple(fed), discarded)
