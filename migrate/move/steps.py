"""Step functions: each distinct run site → one `@tf.function` replaying the backward slice
of its fetches (gradients on a tape, updates, returns shaped as `sess.run` returned them).
"""

from __future__ import annotations

from collections import Counter

import libcst as cst

from .. import codegen as cg
from .. import feeds as feed_vars
from ..codegen import code
from ..global_steps import LOOKUPS as GLOBAL_STEP_LOOKUPS
from ..graph import INSIDE, Node, backward_slice, calls_in, memoised_walk, names_read, valueless
from ..graph_classes import PREFIX as SELF_PREFIX
from ..graph_classes import SUMMARIES
from ..imports import Aliases
from ..model_flags import FlagScan
from ..op_seeds import is_random, uncounted
from ..report import Unsupported
from ..rules.assign import ASSIGN_CALLS
from ..rules.assign import RULE as ASSIGN_RULE
from ..rules.gradients import RULE as GRADIENTS_RULE
from ..rules.optimizers import RULE as OPTIMIZER_RULE
from ..rules.session import RULE as SESSION_RULE
from ..rules.summaries import RULE as SUMMARIES_RULE
from ..step_names import step_base, update_base
from ..walk import walk
from . import contexts, moving_averages, optimizer_objects, run_sites, seeding, summary_ops
from .state import (
    MoveState,
    StepFunction,
    assigns_by_name,
    assigns_in,
    bound_names,
    rebound_by_driver,
)

# Ops whose one result is a tuple of tensors (`top = tf.nn.top_k(x, 2)`): sess.run fetches a tuple.
_TUPLE_OPS = frozenset({"nn.top_k", "math.top_k", "nn.moments", "unique", "math.unique", "meshgrid", "unstack", "split"})


def deferred_updates(move: MoveState, func: cst.FunctionDef) -> cst.FunctionDef | None:
    """`def copy_op(src, dst): return tf.group(*[tf.assign(d, s) for ...])`, a function
    building an update op a session runs later (a target network's hard update): it returns
    a function making the updates, called where the op was run."""
    body = [s for s in func.body.body if not cg.is_docstring(s)]  # type: ignore[union-attr]
    if not (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
            and isinstance(ret := body[0].body[0], cst.Return) and isinstance(ret.value, cst.Call)
            and move.aliases.resolve(ret.value.func) == "group"):
        return None
    calls = calls_in(ret.value)[1:]
    assigns = [c for c in calls if is_assign(move, c)]
    others = [c for c in calls if not is_assign(move, c) and move.aliases.resolve(c.func) is not None]
    if not assigns or others or not is_deferred_only(move, func.name.value):
        return None
    move.update_factories.add(func.name.value)
    new = func.with_changes(body=func.body.with_changes(body=[
        s if s is not body[0] else s.with_changes(body=[ret.with_changes(value=cst.Lambda(cst.Parameters(), ret.value))])
        for s in func.body.body  # type: ignore[union-attr]
    ]))
    cg.copy_lines(func, new, move.lines)
    move.fixed(ASSIGN_RULE.id, func, f"{func.name.value}() returns a function making its updates, called where they ran")
    return new


def is_assign(move: MoveState, call: cst.Call) -> bool:
    func = call.func
    return move.aliases.resolve(func) in ASSIGN_CALLS or (
        isinstance(func, cst.Attribute) and func.attr.value in ASSIGN_CALLS and move.aliases.resolve(func) is None
    )


def is_deferred_only(move: MoveState, name: str) -> bool:
    """Is every call of `name` bound to a name that is read only as the fetch of a run?"""
    assigns = memoised_walk("assigns", move.module, assigns_in)
    runs = {id(c.args[0].value) for c in calls_in(move.module)
            if isinstance(c.func, cst.Attribute) and c.func.attr.value == "run" and len(c.args) == 1}
    targets = {id(t.target) for a in assigns for t in a.targets}
    for call in calls_in(move.module):
        if not (isinstance(call.func, cst.Name) and call.func.value == name):
            continue
        bound = next((a.targets[0].target for a in assigns if a.value is call and len(a.targets) == 1), None)
        if not isinstance(bound, cst.Name):
            return False
        reads = [n for n in names_read(move.module) if n.value == bound.value and id(n) not in targets]
        if not reads or any(id(n) not in runs for n in reads):
            return False
    return True


def deferred_run(move: MoveState, fetch: cst.BaseExpression) -> bool:
    """A name bound once to an update factory's op (`update_target = copy_op(a, b)`)."""
    if not isinstance(fetch, cst.Name):
        return False
    bound = memoised_walk("assigned", move.module, assigns_by_name).get(fetch.value, [])
    return (len(bound) == 1 and isinstance(bound[0].value, cst.Call) and isinstance(bound[0].value.func, cst.Name)
            and bound[0].value.func.value in move.update_factories)


def _variables_fetched(move: MoveState, fetch: cst.BaseExpression) -> str | None:
    """What a fetch of a name bound to a list or dict of variables reads: the whole "list" or
    "dict", a slice of the list (a "list"), or one "item"; None for any other fetch."""
    part = fetch if isinstance(fetch, cst.Subscript) and len(fetch.slice) == 1 else None
    name = part.value if part is not None else fetch
    held = move.scope.lookup(name.value) if isinstance(name, cst.Name) else None
    container = held.info.get("container") if held is not None and held.kind == "variable" else None
    if container not in ("dict", "list"):
        return None
    if part is None:
        return container
    if isinstance(part.slice[0].slice, cst.Index):
        return "item"
    return "list" if container == "list" else None  # a slice of a list


def call_for(
    move: MoveState, fetch: cst.BaseExpression, feed: cst.BaseExpression | None, site: cst.Call,
    new_functions: list[cst.FunctionDef], discarded: bool, keep: list[int] | None = None,
    eager_locals: frozenset[str] = frozenset(),
) -> cst.BaseExpression:
    elements = [e.value for e in fetch.elements] if isinstance(fetch, (cst.List, cst.Tuple)) else [fetch]
    if all(instance_variable(move, e) for e in elements):
        move.fixed(SESSION_RULE.id, site, "variable read with .numpy()")
        numpy = ", ".join(f"{code(e)}.numpy()" for e in elements)
        if isinstance(fetch, cst.List):
            return cst.parse_expression(f"[{numpy}]")
        return cst.parse_expression(numpy if not isinstance(fetch, cst.Tuple) else f"({numpy},)")
    if deferred_run(move, fetch):
        move.fixed(ASSIGN_RULE.id, site, f"run of {code(fetch)} → {code(fetch)}()")
        return cst.parse_expression(f"{code(fetch)}()")
    outside = instance_step(move, site, keep)
    if outside is not None:
        move.fixed(SESSION_RULE.id, site, "run site → the instance's step function")
        return outside
    roots = move.scope.deps_of(fetch)
    if not roots and isinstance(fetch, cst.Name) and fetch.value in eager_locals:
        # A tensor the function built from values it already had (numbers a run returned):
        # TF2 computed it when it was built, and no feed reaches it.
        move.fixed(SESSION_RULE.id, site, f"run of {fetch.value}, computed eagerly here → {fetch.value}.numpy()")
        return cst.parse_expression(f"{fetch.value}.numpy()")
    if not roots and feed is None and run_sites.eager_expression(move, fetch):
        move.fixed(SESSION_RULE.id, site, "run of a TF expression of plain values → .numpy() where it stands")
        return cst.parse_expression(f"{code(fetch)}.numpy()")
    frozen = driver_values(move, fetch)
    if frozen:
        return _evaluated_in_place(move, fetch, feed, roots, site, discarded, frozen)
    if not roots:
        raise Unsupported(SESSION_RULE.id, move.line(site), "fetch does not name a graph tensor of this module")
    for root in roots:
        if root.kind == "schedule" and root.info["step"] is None:
            raise Unsupported(SESSION_RULE.id, move.line(site), "fetching a decayed learning rate with no step")
    if isinstance(fetch, cst.Name) and roots[0].kind == "schedule":
        move.fixed(SESSION_RULE.id, site, "decayed rate read from its schedule at the step")
        return cst.parse_expression(f"{fetch.value}({code(roots[0].info['step'])}).numpy()")  # type: ignore[arg-type]
    feeds: dict[str, cst.BaseExpression] = {}
    if isinstance(feed, cst.Name) and feed.value in move.feeds:
        feeds = feed_vars.fed_values(feed.value, move.feeds[feed.value])
    elif feed is not None:
        if not isinstance(feed, cst.Dict):
            raise Unsupported(SESSION_RULE.id, move.line(site), "feed_dict is not a dict literal")
        for element in feed.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.Name):
                raise Unsupported(SESSION_RULE.id, move.line(site), "feed_dict key is not a placeholder name")
            key_node = move.scope.lookup(element.key.value)
            if key_node is None or key_node.kind != "placeholder":
                raise Unsupported(SESSION_RULE.id, move.line(site), f"feeding {element.key.value}, which is not a placeholder")
            feeds[element.key.value] = element.value
    fetched = _variables_fetched(move, fetch)  # `ws`, `ws[:2]`, `ws[1]` of a list of variables
    if fetched is not None:
        move.fixed(SESSION_RULE.id, site, "variable read with .numpy()" if fetched == "item" else "variables read with .numpy()")
        name = code(fetch)
        read = {"dict": f"{{k: v.numpy() for k, v in {name}.items()}}", "list": f"[v.numpy() for v in {name}]",
                "item": f"{name}.numpy()"}
        return cst.parse_expression(read[fetched])
    leaves = cg.leaves(fetch)
    if leaves is not None and leaves and all(
        (n := move.scope.lookup(leaf)) is not None and n.kind == "variable"
        and "container" not in n.info for leaf in leaves
    ):
        move.fixed(SESSION_RULE.id, site, "variable read with .numpy()")
        return cst.parse_expression(cg.numpy_structure(fetch))
    pulled = _pulled_batch(move, fetch)
    if pulled is not None:  # the batch itself: nothing to compute
        move.fixed(SESSION_RULE.id, site, f"run site → the next batch of {pulled}")
        return cst.parse_expression(f"[t.numpy() for t in {pulled}.get_next()]")
    returned = fetch
    if keep is not None and isinstance(fetch, (cst.List, cst.Tuple)):
        kept = [fetch.elements[i].value for i in keep]
        returned = kept[0] if len(kept) == 1 else cst.List([cst.Element(e) for e in kept])
    key = step_key(move, f"{code(fetch)} -> {code(returned)}", roots)
    fn = move.functions.get(key)
    if fn is None:
        fn = make_function(move, fetch, roots, site, returned)
        move.functions[key] = fn
        new_functions.append(fn.definition)
    args = []
    for param in fn.params:
        if "iterator" in param.info:
            pulled = f"{param.info['iterator']}.get_next()"
            args.append(f"*{pulled}" if len(param.names) > 1 else pulled)
            continue
        if param.name not in feeds and "default" in param.info:
            feeds[param.name] = param.info["default"]  # type: ignore[assignment]
        if param.name not in feeds:
            raise Unsupported(SESSION_RULE.id, move.line(site), f"placeholder {param.name} is not fed")
        args.append(code(feeds[param.name]))
    call = f"{fn.name}({', '.join(args)})"
    move.fixed(SESSION_RULE.id, site, f"run site → {fn.name}()")
    if discarded or fn.returns_structure == "none":
        return cst.parse_expression(call)
    return cst.parse_expression(cg.convert_result(call, fn.returns_structure))


def _pulled_batch(move: MoveState, fetch: cst.BaseExpression) -> str | None:
    """The iterator whose whole batch a fetch is (`[x_batch, y_batch]` of
    `x_batch, y_batch = iterator.get_next()`), if it is."""
    if not isinstance(fetch, (cst.List, cst.Tuple)) or not all(isinstance(e.value, cst.Name) for e in fetch.elements):
        return None
    names = tuple(e.value.value for e in fetch.elements)  # type: ignore[attr-defined]
    node = move.scope.lookup(names[0]) if names else None
    if node is None or node.kind != "placeholder" or "iterator" not in node.info or len(names) < 2:
        return None
    return str(node.info["iterator"]) if tuple(node.names) == names else None


def _bindings(module: cst.Module) -> tuple[frozenset[str], frozenset[str]]:
    """The names the module binds anywhere, and those bound once, by a top-level statement
    outside any block: values no driver code changes."""
    ids = bound_names(module)
    names = [n for n in walk(module) if isinstance(n, cst.Name) and id(n) in ids]
    counts = Counter(n.value for n in names)
    top = {id(n) for s in module.body if isinstance(s, cst.SimpleStatementLine) for n in walk(s)}
    return frozenset(counts), frozenset(n.value for n in names if id(n) in top and counts[n.value] == 1)


def driver_values(move: MoveState, fetch: cst.BaseExpression) -> list[str]:
    """Names a run site's own fetch expression reads that hold values of the driver (a loop's
    counter, a number computed per iteration): TF1 built the fetch from their value at each
    run, a step function would keep the value of its first trace."""
    bound, constants = memoised_walk("bindings", move.module, _bindings)
    return list(dict.fromkeys(
        n.value for n in names_read(fetch)
        if n.value in bound and n.value not in constants and move.scope.lookup(n.value) is None
    ))


def _evaluated_in_place(
    move: MoveState, fetch: cst.BaseExpression, feed: cst.BaseExpression | None, roots: list[Node],
    site: cst.Call, discarded: bool, frozen: list[str],
) -> cst.BaseExpression:
    """A fetch of variables and driver values (`sess.run(tf.assign(lr, 0.1 * 0.9 ** epoch))`),
    computed eagerly where the run was, as TF1 computed it then."""
    if (feed is not None or isinstance(fetch, (cst.List, cst.Tuple, cst.Dict))
            or any(r.kind != "variable" for r in roots)
            or any(is_random(c, move.aliases) or uncounted(c, move.aliases) for c in calls_in(fetch))):
        listed = ", ".join(frozen)
        raise Unsupported(SESSION_RULE.id, move.line(site), f"the fetch reads {listed}, bound by the code running it: "
                          "a step function would keep the value of its first call")
    move.fixed(SESSION_RULE.id, site, f"run of a TF expression of variables and {', '.join(frozen)} → computed where it stands")
    text = code(fetch)
    if not discarded:
        atom = isinstance(fetch, (cst.Call, cst.Name, cst.Attribute, cst.Subscript))
        text = f"{text}.numpy()" if atom else f"({text}).numpy()"
    expr = cst.parse_expression(text)
    cg.fill_lines(expr, move.line(site), move.lines)  # what later passes say of it reports at the run
    return expr


def step_key(move: MoveState, text: str, roots: list[Node]) -> str:
    """The key of the step computing a fetch: its text, and the graph it reads where another
    step took that text already (a name bound again between two runs is another tensor)."""
    graph = tuple(r.index for r in roots)
    if move.step_graphs.setdefault(text, graph) == graph:
        return text
    return f"{text} @ {','.join(map(str, graph))}"


def instance_step(move: MoveState, site: cst.Call, keep: list[int] | None = None) -> cst.BaseExpression | None:
    """`sess.run(inst.t, {inst.x: v})` → `inst.t(v).numpy()`: the step function the
    converted class made for this run site (`keep`: the positions an unpacking keeps)."""
    run = run_sites.instance_run(site, set(move.graph_instances), merges=run_sites.merged_summary_names(move.module))
    if run is None:
        return None
    step = run_sites.instance_step_of(move, run, site, keep)
    if step is None:
        return None
    if SUMMARIES in run.fetch:
        _check_instance_summaries(move, site)
    receiver = code(run_sites.site_receiver(move, site).value)  # type: ignore[attr-defined]
    feed = run_sites.feed_of(site)
    feeds = {code(e.key.attr): code(e.value) for e in feed.elements} if feed is not None else {}  # type: ignore[union-attr]
    call = f"{receiver}.{step.name}({', '.join(feeds[p] for p in step.params)})"
    return cst.parse_expression(call if step.structure == "none" else cg.convert_result(call, step.structure))


def _check_instance_summaries(move: MoveState, site: cst.Call) -> None:
    """A `merge_all()` fetched beside an instance's attributes is that instance's summaries
    only when no other code made summaries: not this scope, another class, or a second
    instance of the class (TF1's merge held them all)."""
    owner = run_sites.instance_owner(run_sites.site_receiver(move, site))
    classes = {cls.name for cls in move.graph_instances.values() if cls.summaries}
    made = sum(cls.name in classes for cls in move.graph_instances.values())
    own = any(n.kind == "summary" and not n.info["merge"] for n in move.scope.nodes)
    if own or len(classes) != 1 or made != 1 or not move.graph_instances[owner].summaries:  # type: ignore[index]
        raise Unsupported(SUMMARIES_RULE.id, move.line(site), "merge_all() fetched with a model's tensors where "
                          "other code makes summaries too")


def instance_variable(move: MoveState, expr: cst.BaseExpression) -> bool:
    """`model.w` where `w` is a variable attribute of a converted class."""
    return (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)
            and expr.value.value in move.graph_instances
            and expr.attr.value in move.graph_instances[expr.value.value].variables)


def make_function(
    move: MoveState, fetch: cst.BaseExpression, roots: list[Node], site: cst.CSTNode,
    returned: cst.BaseExpression | None = None,
) -> StepFunction:
    inside, placeholders, outside = backward_slice(roots)
    for node in outside:
        # the step reads the variables by name when it is traced, after the driver bound the
        # name to their values (`w = sess.run(w)`): TF1's graph kept reading the variables
        rebound = [n for n in node.names if node.kind == "variable" and rebound_by_driver(move, n)]
        if rebound:
            raise Unsupported(SESSION_RULE.id, move.line(site), f"{rebound[0].removeprefix(SELF_PREFIX)} is bound "
                              "to the variables' values before a step reading the variables by that name")
    move.sliced.update(dict.fromkeys(id(n) for n in inside))
    for node in inside:
        if node.kind == "train":
            lr = node.info["optimizer"].info.get("lr_placeholder")  # type: ignore[union-attr]
            if lr is not None and lr not in placeholders:
                placeholders.append(lr)  # type: ignore[arg-type]
    placeholders.sort(key=lambda n: n.index)
    name = function_name(move, fetch)
    seeding.note_random_copies(move, inside, name)
    grad_nodes = [n for n in inside if n.kind in ("train", "gradients", "compute_gradients")]
    tape_calls = [n for n in grad_nodes if n.kind != "train" or n.info["method"] == "minimize"]
    after_tape = set()
    for node in inside:
        if node in grad_nodes or any(d in after_tape or d in grad_nodes for d in node.deps):
            after_tape.add(node)
    # Ops grouped with a train op and not waiting for it, and moving averages, run between the
    # tape and the updates: TF1 ran them as soon as the run began, so they read the variables
    # as they were before the step's update.
    averaged = [n for n in inside if "averages" in n.info]
    grouped = {m for n in inside if groups_training(move, n)
               for m in (move.scope.lookup(r) for r in n.info["runs"]) if m is not None}  # type: ignore[union-attr]
    between = [n for n in inside if (n in grouped or n in averaged) and n not in after_tape]
    forward = [n for n in inside if n not in after_tape and n not in between]
    later = [n for n in inside if n in after_tape]
    body: list[str] = []
    # A fetched decayed rate is the schedule at the step before this update, as in TF1.
    forward_stmts = [
        cst.parse_statement(f"{n.name}_value = {n.name}({code(n.info['step'])})\n")  # type: ignore[arg-type]
        for n in roots if n.kind == "schedule"
    ]
    # A variable fetched beside its update is read before the update, as TF1's run read it.
    beside_update = [] if not any(n.kind == "train" for n in grad_nodes) else list(
        dict.fromkeys(n.value for n in names_read(fetch if returned is None else returned))
    )
    read_first = {
        leaf: move.fresh(f"{leaf.removeprefix(SELF_PREFIX)}_value")
        for leaf in beside_update if summary_ops.is_variable(move, leaf)
    }
    forward_stmts += [cst.parse_statement(f"{v} = tf.identity({k})\n") for k, v in read_first.items()]
    if read_first and any(groups_training(move, n) for n in inside):
        # Through a group TF1's threads read a fetched variable before or after the update.
        move.fixed(SESSION_RULE.id, site, f"{', '.join(read_first)} fetched beside a group of updates: TF1 read "
                   "it before or after them as its threads ran; the step reads it before", "info")
    forward_stmts += [inside_statement(move, n) for n in forward]
    # So is a summary of variables fetched beside it: taken once the forward pass ran.
    snapshots: dict[str, str] = {}
    for leaf in beside_update:
        node = move.scope.lookup(leaf)
        if node is None or node.kind != "summary":
            continue
        values = summary_ops.summary_dict(move, node, read=True)
        if values != summary_ops.summary_dict(move, node):
            base = "summaries" if leaf == SELF_PREFIX + SUMMARIES else leaf.removeprefix(SELF_PREFIX)
            snapshots[leaf] = move.fresh(f"{base}_values")
            forward_stmts.append(cst.parse_statement(f"{snapshots[leaf]} = {values}\n"))
    forward_stmts += recorded_targets(move, grad_nodes)
    persistent = len(tape_calls) > 1
    counter = iter(range(1, 100))
    if grad_nodes:
        watch = watched(move, grad_nodes, placeholders)
        body.append(f"with tf.GradientTape({'persistent=True' if persistent else ''}) as tape:")
        body.extend(f"    tape.watch({w})" for w in watch)
    tracked = [moving_averages.track_and_apply(move, n) for n in averaged]
    for node, (_, apply) in zip(averaged, tracked):
        node.info["apply"] = apply
    # Shadows are made before any update changes what they start from.
    between_stmts = [cst.parse_statement(track + "\n") for track, _ in tracked]
    for node in between:
        if "averages" in node.info:
            between_stmts.append(cst.parse_statement(f"{node.info['apply']}\n").with_changes(
                leading_lines=cg.comments(node.stmt.leading_lines) + cg.inner_comments(node.stmt)))
        else:
            between_stmts.append(inside_statement(move, node))
    later_sources = [after_tape_source(move, n, counter) for n in later]
    returns, structure = return_source(move, fetch if returned is None else returned, read_first, snapshots)
    # Assemble text for the signature; statements are attached as nodes to keep comments.
    params = ", ".join(", ".join(p.names) if "iterator" in p.info else p.name for p in placeholders)
    # Batches pulled from a dataset take its element structure: no signature to spell.
    specs = [] if any("iterator" in p.info for p in placeholders) else [placeholder_spec(move, p) for p in placeholders]
    if not specs:
        decorator = "@tf.function"
    else:  # one line, which wrap_lines splits as black would when it is too long
        decorator = f"@tf.function(input_signature=[{', '.join(specs)}])"
    stub = cst.parse_statement(f"{decorator}\ndef {name}({params}):\n    pass\n")
    assert isinstance(stub, cst.FunctionDef)
    statements: list[cst.BaseStatement] = []
    if grad_nodes:
        with_stmt = cst.parse_statement("\n".join(body) + ("\n    pass\n" if len(body) == 1 else "\n"))
        assert isinstance(with_stmt, cst.With)
        inner = [s for s in with_stmt.body.body if not cg.is_pass(s)] + forward_stmts  # type: ignore[union-attr]
        inner = cg.strip_leading_blank(inner)
        if not inner:
            inner = [cst.parse_statement("pass\n")]
        statements.append(with_stmt.with_changes(body=with_stmt.body.with_changes(body=inner)))
    else:
        statements.extend(cg.strip_leading_blank(forward_stmts))
    statements.extend(between_stmts)
    # A removed group's comments go to the statement after it.
    remarks: list[cst.EmptyLine] = []
    for node, source_or_stmt in zip(later, later_sources):
        if "runs" in node.info:
            remarks += cg.comments(node.stmt.leading_lines) + cg.inner_comments(node.stmt)
        if source_or_stmt and remarks:
            first = source_or_stmt[0]
            source_or_stmt = [first.with_changes(leading_lines=[*remarks, *first.leading_lines]), *source_or_stmt[1:]]
            remarks = []
        statements.extend(source_or_stmt)
    if returns is not None:
        statements.append(cst.parse_statement(f"return {returns}\n").with_changes(leading_lines=remarks))
        remarks = []
    if remarks:
        statements.append(cst.SimpleStatementLine([cst.Pass()], leading_lines=remarks))
    if not statements:
        statements.append(cst.parse_statement("pass\n"))
    # The collection's own statement left the step: every read of it there reads the owners.
    statements = [optimizer_objects.collections_read(move, s) for s in statements]
    definition = stub.with_changes(body=stub.body.with_changes(body=statements))
    # A placeholder's own comment (`x = tf.placeholder(...)  # inputs`) goes above the
    # first step that takes it as an argument.
    remarks = [line for p in placeholders for line in move.placeholder_comments.pop(id(p), [])]
    definition = definition.with_changes(leading_lines=remarks)
    for p in placeholders:
        move.fixed(SESSION_RULE.id, p.stmt, f"placeholder {p.name} → argument of {name}()")
    return StepFunction(name, placeholders, definition, structure)


def function_name(move: MoveState, fetch: cst.BaseExpression) -> str:
    leaves = list(dict.fromkeys(
        n.value for n in names_read(fetch) if move.scope.lookup(n.value) is not None
    ))
    nodes = [move.scope.lookup(leaf) for leaf in leaves]
    trained = [leaf for leaf, n in zip(leaves, nodes) if n is not None and (n.kind == "train" or groups_training(move, n))]
    updates = any(n is not None and makes_updates(move, n) for n in nodes)
    if trained or not updates:  # an update of its own (`inc = v.assign_add(1)`) keeps its name
        train_ops = sum(1 for n in move.scope.nodes if n.kind == "train")
        base = step_base([leaf.removeprefix(SELF_PREFIX) for leaf in leaves if leaf not in trained],
                         [leaf.removeprefix(SELF_PREFIX) for leaf in trained], train_ops > 1)
        base = SELF_PREFIX + base if move.class_mode else base
        return base if takes_tensor_name(move, base) else move.fresh(base)
    written = updated_variables(move, [n for n in nodes if n is not None and makes_updates(move, n)])
    if written:
        base = update_base(written)
    elif leaves and len(leaves) <= 3:
        base = "_and_".join(leaf.removeprefix(SELF_PREFIX) for leaf in leaves)
    else:
        base = "step"
    base = SELF_PREFIX + base if move.class_mode and base != "step" else base
    return base if takes_tensor_name(move, base) else move.fresh(base)


def updated_variables(move: MoveState, updates: list[Node]) -> list[tuple[str, str, bool]]:
    """The variables the assigns of `updates` write (`tf.assign(v, x)`, `v.assign(x)`), each
    with the assign's kind (`assign_add`) and whether its new value reads the variable."""
    found = []
    for node in updates:
        for call in (c for c in calls_in(node.value) if is_assign(move, c)):
            kind = move.aliases.resolve(call.func)
            target, values = (call.args[0].value, call.args[1:]) if kind and call.args else (call.func.value, call.args)
            kind = kind or call.func.attr.value  # type: ignore[attr-defined]
            if isinstance(target, cst.Name) and values:
                reads = target.value in {n.value for n in names_read(values[0].value)}
                found.append((target.value.removeprefix(SELF_PREFIX), kind, reads))
    return found


def makes_updates(move: MoveState, node: Node) -> bool:
    """Is `node` an update (a train op, `v.assign(...)`, a list of assigns)?"""
    if valueless(node) or (isinstance(node.value, cst.Call) and is_assign(move, node.value)):
        return True
    if isinstance(node.value, (cst.List, cst.Tuple)) and node.value.elements:
        return all(p is not None and p is not node and makes_updates(move, p) for p in run_sites.element_nodes(move, node.value))
    return False


def takes_tensor_name(move: MoveState, base: str) -> bool:
    """May a step be named `base`, the name of a graph tensor that moves into a step (the
    user's `train_step = opt.minimize(loss)`), which no step is named yet?"""
    node = move.scope.lookup(base)
    taken = {f.name for f in move.functions.values()}
    return base in move.used_names and node is not None and node.kind in INSIDE and base not in taken


def placeholder_spec(move: MoveState, placeholder: Node) -> str:
    args: dict[str, cst.BaseExpression] = placeholder.info["args"]  # type: ignore[assignment]
    dtype = code(args["dtype"]) if "dtype" in args else "tf.float32"
    # a rate, a flag, or an input a Keras layer's call takes besides its tensor (`keep_prob`):
    # Keras refuses a tensor of unknown rank there, and TF1 code feeds these scalars
    layer_input = move.models is not None and any(
        placeholder.name in fed for fed in move.models.placeholder_inputs.values())
    if "shape" not in args and (layer_input or is_model_flag(move, placeholder)) or id(placeholder) in move.lr_placeholders:
        shape = "[]"
    else:
        shape = code(args["shape"]) if "shape" in args else "None"
    if dtype in _FLOAT32:  # TensorSpec's own default
        return f"tf.TensorSpec({shape})"
    return f"tf.TensorSpec({shape}, {dtype})"


#: The spellings of float32 a placeholder's dtype takes.
_FLOAT32 = frozenset({"tf.float32", '"float"', "'float'", '"float32"', "'float32'", "tf.dtypes.float32"})


def is_model_flag(move: MoveState, placeholder: Node) -> bool:
    """A placeholder passed as a converted model's `training` flag: TF1's cond took it as a
    scalar, and Keras needs the rank of what a model is called with."""
    assert move.models is not None
    scan = move.flag_scan
    if scan is None or scan.nodes is not move.scope.nodes or scan.changes is not move.models.flag_changes:
        scan = move.flag_scan = FlagScan(move.scope.nodes, move.models.flag_changes)
    return scan.passes(placeholder.name, move.models.flag_params)


def watched(move: MoveState, grad_nodes: list[Node], placeholders: list[Node]) -> list[str]:
    names = {p.name for p in placeholders}
    watch: list[str] = []
    for node in grad_nodes:
        if node.kind != "gradients":
            continue
        xs = node.info["args"].get("xs")  # type: ignore[union-attr]
        elements = [e.value for e in xs.elements] if isinstance(xs, (cst.List, cst.Tuple)) else [xs]
        for e in elements:
            if isinstance(e, cst.Name) and e.value in names and e.value not in watch:
                watch.append(e.value)
    return watch


def inside_statement(move: MoveState, node: Node) -> cst.BaseStatement:
    stmt = inside_statement_raw(move, node)
    lines = [ln if ln.comment else ln.with_changes(indent=False) for ln in stmt.leading_lines]
    return stmt.with_changes(leading_lines=lines)


def inside_statement_raw(move: MoveState, node: Node) -> cst.BaseStatement:
    if node.info.get("regularization"):
        return contexts.with_layer_losses(move, node.stmt)
    if node.info.get("instance"):
        target = code(node.stmt.body[0].targets[0].target)  # type: ignore[union-attr]
        stmt = node.stmt.with_changes(
            body=[cst.parse_statement(f"{target} = {node.info['call']}\n").body[0]]  # type: ignore[union-attr]
        )
        scopes = node.info.get("name_scopes")
        if not scopes:
            return stmt
        items = ", ".join(f"tf.keras.name_scope({name!r})" for name in scopes)  # type: ignore[union-attr]
        scoped = cst.parse_statement(f"with {items}:\n    pass\n")
        return scoped.with_changes(  # type: ignore[return-value]
            leading_lines=stmt.leading_lines,
            body=scoped.body.with_changes(body=[stmt.with_changes(leading_lines=[])]),  # type: ignore[attr-defined]
        )
    return node.info.get("seeded", node.stmt)  # type: ignore[return-value]


def recorded_targets(move: MoveState, grad_nodes: list[Node]) -> list[cst.BaseStatement]:
    """A loss written inline (`minimize(a * a)`) is computed under the tape, named."""
    stmts: list[cst.BaseStatement] = []
    for node in grad_nodes:
        args: dict[str, cst.BaseExpression] = node.info.get("args", {})  # type: ignore[assignment]
        key = "ys" if node.kind == "gradients" else "loss"
        target = args.get(key)
        if target is None or isinstance(target, cst.Name):
            continue
        name = move.fresh("loss")
        stmts.append(cst.parse_statement(f"{name} = {code(target)}\n"))
        node.info["args"] = {**args, key: cst.Name(name)}
        node.info["loss_expr"] = target
    return stmts


def after_tape_source(move: MoveState, node: Node, counter) -> list[cst.BaseStatement]:
    args: dict[str, cst.BaseExpression] = node.info.get("args", {})  # type: ignore[assignment]
    lines: list[str] = []
    if node.kind == "gradients":
        xs = args["xs"]
        collections = [n for n in move.scope.deps_of(xs) if n.kind == "collection"]
        if isinstance(xs, cst.Name) and collections:  # `tvars = tf.trainable_variables()`
            xs_code = optimizer_objects.collection_source(move, collections[0])
        else:
            xs_code = code(xs) if isinstance(xs, (cst.List, cst.Tuple)) else f"[{code(xs)}]"
        extra = f", output_gradients={code(args['grad_ys'])}" if "grad_ys" in args else ""
        target = code(node.stmt.body[0].targets[0].target)  # type: ignore[union-attr]
        move.fixed(GRADIENTS_RULE.id, node.stmt, "tf.gradients → tape.gradient")
        stmt = cst.parse_statement(f"{target} = tape.gradient({code(args['ys'])}, {xs_code}{extra})\n")
        return [stmt.with_changes(leading_lines=node.stmt.leading_lines)]
    if node.kind == "compute_gradients":
        var_list = optimizer_objects.var_list_source(move, node.info.get("loss_expr", args["loss"]), args.get("var_list"), move.line(node.stmt))  # type: ignore[arg-type]
        node.info["var_list"] = var_list
        target = code(node.stmt.body[0].targets[0].target)  # type: ignore[union-attr]
        grads = f"tape.gradient({code(args['loss'])}, {var_list})"
        if node.info.get("unzipped"):  # `grads, variables = zip(*opt.compute_gradients(loss))`
            lines.append(f"{target} = tuple({grads}), tuple({var_list})")
        else:
            lines.append(f"{target} = list(zip({grads}, {var_list}))")
    elif node.kind == "train":
        opt: Node = node.info["optimizer"]  # type: ignore[assignment]
        if node.info["method"] == "minimize":
            var_list = optimizer_objects.var_list_source(move, node.info.get("loss_expr", args["loss"]), args.get("var_list"), move.line(node.stmt))  # type: ignore[arg-type]
            instance = optimizer_objects.optimizer_for(move, node, var_list)
            n = next(counter)
            grads = "grads" if n == 1 else f"grads_{n}"
            lr = opt.info.get("lr_placeholder")
            if lr is not None:
                lines.extend(optimizer_objects.fed_rate(move, opt, instance, var_list, lr.name))  # type: ignore[union-attr]
            lines.append(f"{grads} = tape.gradient({code(args['loss'])}, {var_list})")
            lines.append(f"{instance}.apply_gradients(zip({grads}, {var_list}))")
        else:
            gv = args["grads_and_vars"]
            source_nodes = move.scope.deps_of(gv)
            var_list = next((str(s.info["var_list"]) for s in _ancestors(source_nodes) if "var_list" in s.info), code(gv))
            instance = optimizer_objects.optimizer_for(move, node, var_list)
            lr = opt.info.get("lr_placeholder")
            if lr is not None:
                lines.extend(optimizer_objects.fed_rate(move, opt, instance, var_list, lr.name))  # type: ignore[union-attr]
            lines.append(f"{instance}.apply_gradients({code(optimizer_objects.collections_read(move, gv))})")
        schedule = opt.info.get("schedule")
        if schedule is not None:
            step = schedule.info["step"]  # type: ignore[union-attr]
            given = args.get("global_step")
            if given is None or step is None or code(given) != code(step):  # type: ignore[arg-type]
                raise Unsupported(
                    OPTIMIZER_RULE.id, move.line(node.stmt),
                    "decayed learning rate not driven by this train op's global_step",
                )
            if opt.info["path"] == "train.MomentumOptimizer":
                names = (move.fresh("rescale"), move.fresh("momentum"))
                lines.extend(_momentum_rescale(instance, schedule.name, *names))  # type: ignore[union-attr]
        if "global_step" in args:
            step = args["global_step"]
            if isinstance(step, cst.Call) and move.aliases.resolve(step.func) in GLOBAL_STEP_LOOKUPS:
                raise Unsupported(OPTIMIZER_RULE.id, move.line(node.stmt), "the global step is looked up with "
                                  "get_global_step(), and no one module-level variable is TF1's global step")
            lines.append(f"{code(step)}.assign_add(1)")
        move.fixed(OPTIMIZER_RULE.id, node.stmt, f"{node.info['method']} → tape + apply_gradients")
    elif "runs" in node.info:
        return grouped_runs(move, node)
    elif "averages" in node.info:
        lines.append(str(node.info["apply"]))
    else:
        return [node.stmt]
    stmts = [cst.parse_statement(line + "\n") for line in lines]
    stmts[0] = stmts[0].with_changes(leading_lines=cg.comments(node.stmt.leading_lines) + cg.inner_comments(node.stmt))
    return stmts


def trained_in_group(move: MoveState, node: Node) -> list[str]:
    """The train ops among the ops `node` groups (none when it groups none)."""
    runs: list[str] = node.info.get("runs", [])  # type: ignore[assignment]
    return [r for r in runs if (m := move.scope.lookup(r)) is not None and m.kind == "train"]


def groups_training(move: MoveState, node: Node) -> bool:
    """Is `node` a group of ops one of which is a train op?"""
    return bool(trained_in_group(move, node))


def grouped_runs(move: MoveState, node: Node) -> list[cst.BaseStatement]:
    """A group of the graph's ops leaves the step, which runs each of them already (its
    comments go to the statement after it)."""
    runs: list[str] = node.info["runs"]  # type: ignore[assignment]
    trains = trained_in_group(move, node)
    others = [r for r in runs if r not in trains]
    if trains and others:
        move.fixed(SESSION_RULE.id, node.stmt, f"{node.name}: TF1 ran {', '.join(runs)} side by side; the step "
                   f"runs {', '.join(others)} before the update of {', '.join(trains)}, which "
                   f"{'they do' if len(others) > 1 else 'it does'} not wait for, reading the variables as "
                   "TF1's run did")
    elif len(runs) > 1:
        move.fixed(SESSION_RULE.id, node.stmt, f"{node.name}: TF1 ran {', '.join(runs)} in no set order; "
                   "the step runs them in the order they were built")
    return []


def return_source(
    move: MoveState, fetch: cst.BaseExpression, read_first: dict[str, str] | None = None,
    snapshots: dict[str, str] | None = None,
) -> tuple[str | None, str]:
    """The function's return expression (train ops → None, variables and summaries read
    before the update → their value) and the result structure."""
    read_first = read_first or {}
    snapshots = snapshots or {}
    if read_first:
        fetch = fetch.visit(_Rename(read_first))
    if isinstance(fetch, cst.Name):
        node = move.scope.lookup(fetch.value)
        if node is not None and valueless(node):
            return None, "none"
        if node is not None and node.kind == "summary":
            return snapshots.get(fetch.value) or summary_ops.summary_dict(move, node), summary_ops.summary_structure(move)
        if node is not None and node.kind == "schedule":
            return f"{node.name}_value", "single"
        if node is not None and _list_valued(node, move.aliases):
            return fetch.value, "nested"
        return fetch.value, "single"

    nones: list[str] = []  # train ops fetched: None in the structure
    summaries: list[str] = []  # summaries fetched: a dict of tags in the structure

    class NoneForOps(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            node = move.scope.lookup(original.value)
            if node is not None and valueless(node):
                nones.append(original.value)
                return cst.Name("None")
            if node is not None and node.kind == "summary":
                summaries.append(original.value)
                return cst.parse_expression(snapshots.get(original.value) or summary_ops.summary_dict(move, node))
            if node is not None and node.kind == "schedule":
                return cst.Name(f"{original.value}_value")
            return updated

    returned = fetch.visit(NoneForOps())
    has_none = bool(nones)
    leaves = cg.leaves(fetch)
    flat = leaves is not None and not any(
        (n := move.scope.lookup(leaf)) is not None and _list_valued(n, move.aliases) for leaf in leaves
    )
    if isinstance(fetch, cst.List) and flat and not has_none and not summaries:
        structure = "list"
    elif isinstance(fetch, cst.Dict) and not has_none and not summaries and all(
        isinstance(e, cst.DictElement) and not isinstance(e.value, (cst.List, cst.Dict, cst.Tuple)) for e in fetch.elements
    ):
        structure = "dict"
    elif isinstance(fetch, (cst.List, cst.Tuple, cst.Dict)):
        structure = "nested_with_none" if has_none else "nested"
    elif isinstance(fetch, cst.Call) and move.aliases.resolve(fetch.func) is None:
        # a method's or helper's result (`iterator.get_next()`): any structure of tensors
        structure = "nested"
    else:
        structure = "single"
    return code(returned), structure  # type: ignore[arg-type]


class _Rename(cst.CSTTransformer):
    """Plain names replaced by others (`global_step` → `global_step_value`)."""

    def __init__(self, names: dict[str, str]) -> None:
        super().__init__()
        self.names = names

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return cst.Name(self.names[updated.value]) if updated.value in self.names else updated


def _ancestors(nodes: list[Node]) -> list[Node]:
    seen: list[Node] = []
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.append(n)
            stack.extend(n.deps)
    return seen


def _momentum_rescale(optimizer: str, schedule: str, rescale: str, momentum: str) -> list[str]:
    """Lines that keep Keras momentum equal to TF1's under a decayed rate.

    TF1 accumulates raw gradients and scales the whole accumulator by the current rate;
    Keras SGD's momentum holds steps scaled by the rates they were taken at. Rescaling it by
    next rate / this rate after each update makes it the TF1 accumulator times the next rate.
    """
    comment = "# TF1 scales its whole momentum accumulator by the current rate: rescale Keras's for the next."
    rates = f"{schedule}({optimizer}.iterations) / {schedule}({optimizer}.iterations - 1)"
    return [
        f"{comment}\n{rescale} = {rates}",
        f"for {momentum} in {optimizer_objects.momentums(optimizer)}:\n    {momentum}.assign({momentum} * {rescale})",
    ]


def _list_valued(node: Node, aliases: Aliases) -> bool:
    """Nodes whose value is a list or tuple (sess.run returns one for them)."""
    if len(node.names) > 1:
        return False
    return (node.kind in ("gradients", "compute_gradients", "collection") or isinstance(node.value, (cst.List, cst.Tuple))
            or isinstance(node.value, cst.Call) and aliases.resolve(node.value.func) in _TUPLE_OPS)
