"""Graph contexts: `with` blocks (sessions, graphs, variable and name scopes, control
dependencies) unwrapped into the flat statements the move converts, each with its scope.
"""

from __future__ import annotations

import libcst as cst

from .. import codegen as cg
from ..api_table import REGULARIZATION_READS
from ..codegen import code
from ..graph import calls_in, memoised_walk
from ..report import Unsupported
from ..rules.layers import RULE as LAYERS_RULE
from ..rules.session import RULE as SESSION_RULE
from ..rules.session import SESSION_CALLS
from ..rules.summaries import RULE as SUMMARIES_RULE
from ..rules.variable_scope import RULE as SCOPE_RULE
from ..summary_helpers import helper_call, inline_call, static_string
from ..walk import walk
from . import layer_instances
from .state import Item, MoveState, assigns_by_name


def flatten(
    move: MoveState, body: tuple[cst.BaseStatement, ...] | list[cst.BaseStatement], prefix: str,
    out: list[Item], names: str | None = "",
) -> list[Item]:
    """Unwrap `with Session/Graph/variable_scope` blocks into the top level, and calls of
    summary helpers into their bodies."""
    for stmt in body:
        helper = helper_call(stmt, move.summary_helpers)
        inlined = inline_call(stmt, helper, move.helper_taken, move.lines) if helper else None  # type: ignore[arg-type]
        if helper is not None and inlined is not None:
            move.inlined_calls.add(id(stmt.body[0].value))  # type: ignore[attr-defined]
            move.used_names |= move.helper_taken
            move.fixed(SUMMARIES_RULE.id, stmt, f"{helper.name.value}() inlined: its summaries join the merge")
            flatten(move, inlined, prefix, out, names)
            continue
        grouped = grouped_no_op(move, stmt)
        if grouped is not None:
            out.append(Item(grouped, prefix, move.line(stmt), names))
            continue
        if isinstance(stmt, cst.With):
            new_prefix = graph_context(move, stmt, prefix)
            if new_prefix is not None:
                inner = cg.unwrapped(stmt)
                for old_stmt, new_stmt in zip(stmt.body.body, inner):  # type: ignore[union-attr]
                    if new_stmt is not old_stmt:
                        cg.record_line(move.lines, new_stmt, move.line(old_stmt))
                move.fixed(SESSION_RULE.id, stmt, "graph/session context unwrapped")
                flatten(move, inner, new_prefix, out, name_scope_of(move, stmt, names))
                continue
        for part in gradients_hoisted(move, stmt):
            out.append(Item(part, prefix, move.line(stmt), names))
    return out


def grouped_no_op(move: MoveState, stmt: cst.BaseStatement) -> cst.SimpleStatementLine | None:
    """`with tf.control_dependencies([train_step, ema_op]): train_op = tf.no_op(name=...)` as
    `train_op = tf.group(train_step, ema_op, name=...)`: TF1 builds the same op for both, a
    no-op that runs the listed ones first."""
    if not (isinstance(stmt, cst.With) and len(stmt.items) == 1 and isinstance(stmt.body, cst.IndentedBlock)
            and len(stmt.body.body) == 1):
        return None
    call, inner = stmt.items[0].item, stmt.body.body[0]
    if not (isinstance(call, cst.Call) and move.aliases.resolve(call.func) == "control_dependencies"
            and len(call.args) == 1 and isinstance(call.args[0].value, (cst.List, cst.Tuple))
            and all(isinstance(e.value, cst.Name) and not isinstance(e, cst.StarredElement)
                    for e in call.args[0].value.elements)):
        return None
    if not (isinstance(inner, cst.SimpleStatementLine) and len(inner.body) == 1 and isinstance(inner.body[0], cst.Assign)
            and isinstance(no_op := inner.body[0].value, cst.Call) and isinstance(no_op.func, cst.Attribute)
            and move.aliases.resolve(no_op.func) == "no_op"
            and all(a.keyword is not None and a.keyword.value == "name" for a in no_op.args)):
        return None
    ops = [cst.Arg(e.value) for e in call.args[0].value.elements]
    group = no_op.with_changes(func=no_op.func.with_changes(attr=cst.Name("group")), args=[*ops, *no_op.args])
    grouped = inner.with_changes(
        body=[inner.body[0].with_changes(value=group)],
        leading_lines=[*stmt.leading_lines, *cg.comments(inner.leading_lines)],
    )
    cg.record_line(move.lines, grouped, move.line(stmt))
    return grouped


def gradients_hoisted(move: MoveState, stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
    """`grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 5.0)` and
    `capped = [(clip(g), v) for g, v in opt.compute_gradients(loss)]` as two statements,
    `grads = <the gradients call>` first: the step computes gradients by a tape where a
    statement binds them. Only an argument of the value's call or the iterable of its
    comprehension's first loop moves: those Python evaluates first, outside any loop."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Assign)):
        return [stmt]
    value = stmt.body[0].value
    if isinstance(value, cst.Call) and not gradients_call(move, value):
        inner = [a.value for a in value.args if gradients_call(move, a.value)]
    elif isinstance(value, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
        inner = [value.for_in.iter] if gradients_call(move, value.for_in.iter) else []
    else:
        inner = []
    if len(inner) != 1:
        return [stmt]
    tf_gradients = move.aliases.resolve(inner[0].func) == "gradients"  # type: ignore[attr-defined]
    base = "grads" if tf_gradients else "grads_and_vars"
    targets = {n.value for t in stmt.body[0].targets for n in walk(t.target) if isinstance(n, cst.Name)}
    # `grads, _ = tf.clip_by_global_norm(grads, 5.0)`: the statement rebinds the name it reads
    name = base if base in targets else move.fresh(base)
    hoisted = cst.SimpleStatementLine(
        [cst.Assign([cst.AssignTarget(cst.Name(name))], inner[0])], leading_lines=stmt.leading_lines,
    )
    if isinstance(value, cst.Call):
        value = value.with_changes(args=[a.with_changes(value=cst.Name(name)) if a.value is inner[0] else a
                                         for a in value.args])
    else:
        value = value.with_changes(for_in=value.for_in.with_changes(iter=cst.Name(name)))
    rest = stmt.with_changes(body=[stmt.body[0].with_changes(value=value)], leading_lines=[])
    for part in (hoisted, rest):
        cg.record_line(move.lines, part, move.line(stmt))
    return [hoisted, rest]


def gradients_call(move: MoveState, node: cst.BaseExpression) -> bool:
    """`tf.gradients(...)` or `<optimizer>.compute_gradients(...)`."""
    return isinstance(node, cst.Call) and (
        move.aliases.resolve(node.func) == "gradients"
        or isinstance(node.func, cst.Attribute) and node.func.attr.value == "compute_gradients"
    )


def name_scope_of(move: MoveState, stmt: cst.With, names: str | None) -> str | None:
    """TF1's name scope inside an unwrapped `with`: variable and name scopes open one
    each, made unique as TF1 made them; None once a name is known only at run time."""
    for with_item in stmt.items:
        call = with_item.item
        path = move.aliases.resolve(call.func) if isinstance(call, cst.Call) else None  # type: ignore[union-attr]
        if path not in ("variable_scope", "name_scope"):
            continue
        arg = call.args[0].value if call.args else None  # type: ignore[union-attr]
        name = static_string(arg) if arg is not None else None
        names = None if names is None or name is None else move.name_scopes.unique(names + name) + "/"
    return names


def scoped_variable(move: MoveState, stmt: cst.SimpleStatementLine, name_scope: str | None) -> cst.SimpleStatementLine:
    """`tf.Variable(..., name=n)` under TF1 name scopes: the name the graph gave it
    (`hidden/weights`), which TF2 builds from no flattened scope."""
    call = stmt.body[0].value  # type: ignore[attr-defined]
    if not name_scope or not (isinstance(call, cst.Call) and move.aliases.resolve(call.func) == "Variable"):
        return stmt
    given = next((a for a in call.args if a.keyword is not None and a.keyword.value == "name"), None)
    if given is None and any(a.keyword is None for a in call.args[1:]):
        return stmt  # a positional name is past the initial value and its flags
    if given is None:
        # TF1 names each op once in its graph: a second unnamed variable there is Variable_1
        value: cst.BaseExpression = cst.SimpleString(f'"{move.name_scopes.unique(name_scope + "Variable")}"')
        args = [*call.args, cst.Arg(value, keyword=cst.Name("name"), equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))]
    else:
        if isinstance(given.value, cst.SimpleString):
            text, quote = move.name_scopes.unique(f"{name_scope}{given.value.evaluated_value}"), given.value.quote
            value = cst.SimpleString(f"{quote}{text}{quote}" if quote in ('"', "'") and quote not in text else repr(text))
        else:
            value = cst.parse_expression(f"{name_scope!r} + {code(given.value)}")
        args = [a.with_changes(value=value) if a is given else a for a in call.args]
    new = stmt.with_changes(body=[stmt.body[0].with_changes(value=call.with_changes(args=args))])
    cg.copy_lines(stmt, new, move.lines)
    return new


def named_graphs(move: MoveState) -> set[str]:
    """Names the module binds once, at its top level, to a new `tf.Graph()`."""
    def graph_names(module: cst.Module) -> set[str]:
        made = [
            s.body[0].targets[0].target.value  # type: ignore[attr-defined]
            for s in module.body
            if isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], cst.Assign)
            and len(s.body[0].targets) == 1 and isinstance(s.body[0].targets[0].target, cst.Name)
            and isinstance(s.body[0].value, cst.Call) and not s.body[0].value.args
            and move.aliases.resolve(s.body[0].value.func) == "Graph"
        ]
        return {name for name in made if layer_instances.assignments(move)[name] == 1}

    return memoised_walk("graphs", move.module, graph_names)  # asked at every `with`


def check_graph_uses(move: MoveState, name: str, stmt: cst.BaseStatement) -> None:
    """A named `tf.Graph()` goes only when the program uses it just to enter it
    (`with graph.as_default():`) and to give it to sessions and writers (`graph=graph`)."""
    nodes = memoised_walk("all", move.module, lambda m: list(walk(m)))
    keywords = {id(n.keyword) for n in nodes if isinstance(n, cst.Arg) and n.keyword is not None}
    uses = sum(isinstance(n, cst.Name) and n.value == name and id(n) not in keywords for n in nodes)
    entered = sum(isinstance(n, cst.Attribute) and n.attr.value == "as_default" and isinstance(n.value, cst.Name)
                  and n.value.value == name for n in nodes)
    given = sum(isinstance(n, cst.Arg) and isinstance(n.value, cst.Name) and n.value.value == name
                and (n.keyword is None or n.keyword.value == "graph") and takes_graph(move, n, nodes)
                for n in nodes)
    if uses != 1 + entered + given:
        raise Unsupported(SESSION_RULE.id, move.line(stmt), f"graph {name} used beyond entering it and giving it to a session")


def takes_graph(move: MoveState, arg: cst.Arg, nodes: list[cst.CSTNode]) -> bool:
    call = next(n for n in nodes if isinstance(n, cst.Call) and any(a is arg for a in n.args))
    return move.aliases.resolve(call.func) in (*SESSION_CALLS, "summary.FileWriter")


def graph_context(move: MoveState, stmt: cst.With, prefix: str) -> str | None:
    """The scope prefix inside a `with` of graph/session contexts, None for other withs."""
    for with_item in stmt.items:
        call = with_item.item
        if not isinstance(call, cst.Call):
            return None
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "as_default":
            inner = func.value
            if isinstance(inner, cst.Call) and move.aliases.resolve(inner.func) == "Graph":
                continue
            if isinstance(inner, cst.Name) and inner.value in named_graphs(move):
                continue
            return None
        path = move.aliases.resolve(func)
        if path in SESSION_CALLS:
            if with_item.asname is not None and isinstance(with_item.asname.name, cst.Name):
                move.scope.sessions.add(with_item.asname.name.value)
            continue
        if path == "variable_scope" and call.args:
            if with_item.asname is not None and isinstance(with_item.asname.name, cst.Name):
                move.scope_handles.add(with_item.asname.name.value)
            name = call.args[0].value
            if len(call.args) == 1 and is_current_scope(move, name):
                continue  # re-entering the scope it is already in: names are unchanged
            if len(call.args) == 1 and isinstance(name, cst.Name) and name.value in move.scope_arguments:
                # `{scope}/`: a template its variables' names are formatted from
                prefix = f"{prefix}{{{name.value}}}/"
                continue
            if not isinstance(name, cst.SimpleString) or len(call.args) > 1:
                raise Unsupported(SCOPE_RULE.id, move.line(stmt), "variable_scope with reuse or a computed name at module level")
            prefix = f"{prefix}{name.evaluated_value}/"
            continue
        if path == "name_scope":
            continue
        if path == "control_dependencies" and len(call.args) == 1 and is_update_ops(move, call.args[0].value):
            continue
        return None
    return prefix


def is_current_scope(move: MoveState, expr: cst.BaseExpression) -> bool:
    """`tf.get_variable_scope()`: the scope the statement already runs in."""
    return isinstance(expr, cst.Call) and not expr.args and move.aliases.resolve(expr.func) == "get_variable_scope"


def regularization_read(move: MoveState, call: cst.Call) -> str | None:
    """The REGULARIZATION_READS template of a call reading TF1's regularization losses."""
    path = move.aliases.resolve(call.func)
    if path == "get_collection" and call.args and move.aliases.resolve(call.args[0].value) == "GraphKeys.REGULARIZATION_LOSSES":
        return "{losses}"
    return REGULARIZATION_READS.get(path or "")


def reads_regularization(move: MoveState, expr: cst.CSTNode) -> bool:
    return any(regularization_read(move, c) is not None for c in calls_in(expr))


def with_layer_losses(move: MoveState, stmt: cst.BaseStatement) -> cst.BaseStatement:
    """Regularization collection reads → the Keras layers' `losses`."""
    assert move.models is not None
    owners = [instance for instance in move.models.instances() if instance in move.models.regularized_models]
    owners += [str(n.info["instance"]) for n in move.scope.nodes if n.info.get("regularized")]
    if not owners:
        # Penalties from get_variable(regularizer=) or variable_scope(regularizer=) are not
        # modelled: reading them as nothing would silently drop them.
        raise Unsupported(LAYERS_RULE.id, move.line(stmt), "regularization losses of no layer the rewrite built")
    losses = " + ".join(f"{o}.losses" for o in owners)

    class Reads(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            template = regularization_read(move, original)
            if template is None:
                return updated
            return cst.parse_expression(template.format(losses=losses))

    move.fixed(LAYERS_RULE.id, stmt, "regularization losses read from the Keras layers that own them")
    return stmt.visit(Reads())  # type: ignore[return-value]


def is_update_ops(move: MoveState, expr: cst.BaseExpression) -> bool:
    """`tf.get_collection(tf.GraphKeys.UPDATE_OPS)` or a name bound to it."""
    if isinstance(expr, cst.Name):
        # `with tf.control_dependencies(update_ops)` is unwrapped before names are bound.
        return any(
            len(a.targets) == 1 and is_update_ops(move, a.value)
            for a in memoised_walk("assigned", move.module, assigns_by_name).get(expr.value, [])
        )
    return (isinstance(expr, cst.Call) and move.aliases.resolve(expr.func) == "get_collection"
            and bool(expr.args) and move.aliases.resolve(expr.args[0].value) == "GraphKeys.UPDATE_OPS")
