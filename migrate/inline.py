"""Graph builders inlined into their one caller.

Library-style TF1 code builds its graph in a function that creates placeholders and returns
the tensors (`x, loss, train_op = build_graph()`, or a dict of them), and runs them in another
function. A placeholder becomes an argument of the step function that feeds it, so the graph
the builder returns has no TF2 value of its own: the builder's statements move to where it was
called, its parameters bound to the call's arguments and its returned names renamed to the
caller's, and the program move then treats them as graph statements of the calling scope.

The same holds for helpers of a program that runs its graph itself, in the layout of the TF1
tutorials (`logits = inference(images)`, `train_op, lr, step = training(loss)`): a helper that
creates tf.Variables and computes with them returns tensors whose variables must be created once,
outside the step functions. Inlined, each variable is a graph statement of the caller; returned
expressions are bound to the caller's names, and a name the helper binds twice (`weights` in two
name scopes) takes a fresh name from its second binding on.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .api_table import OPTIMIZERS, SUMMARY_OPS
from .codegen import ReplaceNames, copy_lines, is_docstring, record_line
from .graph import call_args, name_uses, names_read, top_level_defs
from .imports import Aliases
from .report import Finding
from .rules.session import RULE as SESSION_RULE
from .rules.session import SESSION_CALLS
from .scope_reads import call_scopes
from .variable_layers import regularized_variable, variable_layer
from .walk import children, walk


@dataclass
class _Site:
    """Where a builder is called: the statement and the scope (function or module) it is in."""

    stmt: cst.SimpleStatementLine
    owner: cst.Module | cst.FunctionDef
    call: cst.Call


@dataclass
class _Inlined:
    """The statements replacing the call, and the caller's `g["key"]` reads to respell."""

    stmts: list[cst.BaseStatement]
    subscripts: tuple[str, dict[str, str]] | None


def inline_builders(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
    suffixed: dict[str, str] | None = None,
) -> cst.Module:
    """The module with each graph-building function called once inlined at its call;
    `suffixed` gets each fresh name an inlined local took (`rng_2`) -> the local's name."""
    runs_graph = any(
        isinstance(n, cst.Call) and aliases.resolve(n.func) in SESSION_CALLS for n in walk(module)
    )
    scopes = call_scopes(module, aliases)
    defs = top_level_defs(module)
    for name in list(defs):
        func = defs.get(name)  # looked up again: inlining an earlier builder may have rebuilt it
        if func is None or not _is_builder(func, aliases, runs_graph, scopes.get(name, set()) <= {""}):
            continue
        site = _one_call_site(module, func.name.value)
        if site is None:
            continue
        inlined = _inline(func, site, module, aliases, lines, suffixed if suffixed is not None else {})
        if inlined is None:
            continue
        owner_name = (
            site.owner.name.value if isinstance(site.owner, cst.FunctionDef) else "the module"
        )
        findings.append(
            Finding(
                SESSION_RULE.id,
                lines.get(id(site.stmt), 0),
                0,
                f"{func.name.value}() inlined into {owner_name}: the graph it returned is built there "
                f"(code importing {func.name.value} needs the same move)",
                "fixed",
            )
        )
        module = _replace(module, func, site, inlined, lines)
        scopes = call_scopes(module, aliases)  # inlined calls now run under the caller's scopes
        defs = top_level_defs(module)
    return module


def _is_builder(func: cst.FunctionDef, aliases: Aliases, runs_graph: bool, unscoped: bool) -> bool:
    """Builds placeholders, a one-shot iterator or summaries (or, in a program that runs its
    graph, computes with variables it creates), runs no session, and is a plain function
    Python can inline. `unscoped`: no call of it runs under a variable_scope, so nothing
    would name a Keras layer made of it."""
    params = func.params
    if (
        func.decorators
        or params.star_arg not in (cst.MaybeSentinel.DEFAULT, None)
        or params.star_kwarg
        or params.kwonly_params
        or params.posonly_params
        or func.asynchronous
    ):
        return False
    nodes = list(walk(func.body))
    calls = [n for n in nodes if isinstance(n, cst.Call)]
    if not any(_graph_entry(c, aliases) for c in calls) and not (
        runs_graph and _computes_with_variables(func, calls, aliases, unscoped)
    ):
        return False
    if variable_layer(func, aliases):
        return False  # a layer: its weights' shape is the input's, known where it is called
    if any(regularized_variable(c, aliases) for c in calls):
        return False  # weights a helper's penalties regularize (loss_collection.py): a model's layers own them
    if any(aliases.resolve(c.func) in SESSION_CALLS for c in calls) or any(
        isinstance(c.func, cst.Attribute) and c.func.attr.value in ("run", "eval") for c in calls
    ):
        return False
    # A nested function (a dataset's map function) moves with the body: the renaming of its
    # locals covers every scope in it alike.
    blocked = (cst.Global, cst.Nonlocal, cst.Yield, cst.Await, cst.ClassDef)
    if any(isinstance(n, blocked) for n in nodes):
        return False
    body = _lifted_return(list(func.body.body))  # type: ignore[union-attr]
    nested = {id(n) for d in nodes if isinstance(d, (cst.FunctionDef, cst.Lambda)) for n in walk(d)}
    returns = [n for n in nodes if isinstance(n, cst.Return) and id(n) not in nested]
    last = body[-1] if body else None
    return (
        len(returns) == 1
        and isinstance(last, cst.SimpleStatementLine)
        and len(last.body) == 1
        and last.body[0] is returns[0]
        and returns[0].value is not None
    )


def _graph_entry(call: cst.Call, aliases: Aliases) -> bool:
    """A placeholder or `dataset.make_one_shot_iterator()`, where the graph's input comes in,
    or a summary op, which the graph collects: the program sees them where they are built."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "make_one_shot_iterator":
        return True
    path = aliases.resolve(call.func)
    return path in ("placeholder", "data.make_one_shot_iterator") or path in SUMMARY_OPS


def _lifted_return(
    body: list[cst.BaseStatement], lines: dict[int, int] | None = None
) -> list[cst.BaseStatement]:
    """`with tf.name_scope(...): ...; return x` ends as `with ...: ...` then `return x`: the
    returned value is the same, and leaving a scope early renames ops, not variables."""
    last = body[-1] if body else None
    if not (isinstance(last, cst.With) and isinstance(last.body, cst.IndentedBlock)):
        return body
    inner = _lifted_return(list(last.body.body), lines)
    ret = inner[-1]
    if not (isinstance(ret, cst.SimpleStatementLine) and isinstance(ret.body[-1], cst.Return)):
        return body
    if len(inner) == 1:
        return [*body[:-1], ret]
    with_rest = last.with_changes(body=last.body.with_changes(body=inner[:-1]))
    if lines is not None:
        record_line(lines, with_rest, lines.get(id(last), 0))
    return [*body[:-1], with_rest, ret]


def _variable_names(
    node: cst.CSTNode, aliases: Aliases, makers: tuple[str, ...] = ("Variable", "get_variable")
) -> set[str]:
    """Names bound to a new variable (`w = tf.Variable(...)`) somewhere in `node`."""
    created: set[str] = set()
    for n in walk(node):
        if (
            isinstance(n, cst.Assign)
            and isinstance(n.value, cst.Call)
            and aliases.resolve(n.value.func) in makers
        ):
            created |= {t.target.value for t in n.targets if isinstance(t.target, cst.Name)}
    return created


def _computes_with_variables(
    func: cst.FunctionDef, calls: list[cst.Call], aliases: Aliases, unscoped: bool
) -> bool:
    """A variable the function creates is read by another op of it (a factory that only
    returns its new variable is not a graph builder: callers bind it as a variable).
    get_variable (and, in a variable_scope, tf.Variable) functions become Keras layers named
    by a variable_scope instead (scoped_models.py), unless no scope is there to name one: then their variables are TF1's
    top-level names, which the caller's own get_variable statements keep; or unless they also
    build their optimizer: a layer cannot hold the training step."""
    makers: tuple[str, ...] = ("Variable", "get_variable")
    trains = any(aliases.resolve(c.func) in OPTIMIZERS for c in calls)
    if not trains and any(aliases.resolve(c.func) == "variable_scope" for c in calls):
        makers = ()  # tf.Variable weights in a scope's block are a Keras layer's too
    elif not trains and not unscoped:
        makers = ("Variable",)
    created = _variable_names(func.body, aliases, makers)
    return any(
        aliases.resolve(c.func) not in makers and created & _member_free_names(c) for c in calls
    )


def _one_call_site(module: cst.Module, name: str) -> _Site | None:
    """The only use of `name`: `target = name(...)`, a statement of the module or of a top-level
    function; None when the name is used anywhere else."""
    uses = name_uses(module).get(name, [])
    if len(uses) != 2:  # the def's own name and one call
        return None
    owners: list[cst.Module | cst.FunctionDef] = [module]
    owners += [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value != name]
    for owner in owners:
        for stmt in owner.body if isinstance(owner, cst.Module) else owner.body.body:  # type: ignore[union-attr]
            if not (
                isinstance(stmt, cst.SimpleStatementLine)
                and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Assign)
                and len(stmt.body[0].targets) == 1
            ):
                continue
            value = stmt.body[0].value
            if (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Name)
                and value.func.value == name
            ):
                return _Site(stmt, owner, value)
    return None


def _bound(node: cst.CSTNode) -> set[str]:
    """Names a block binds: assignment, loop and `with ... as` targets."""
    names: set[str] = set()

    def add(target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            names.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                add(element.value)
        elif isinstance(target, cst.StarredElement):
            add(target.value)

    for n in walk(node):
        if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor)):
            add(n.target)
        elif isinstance(n, cst.AsName):
            add(n.name)  # type: ignore[arg-type]
        elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            names.add(n.name.value)  # a nested definition binds its name where it stands
    return names


def _inline(
    func: cst.FunctionDef, site: _Site, module: cst.Module, aliases: Aliases, lines: dict[int, int],
    suffixed: dict[str, str],
) -> _Inlined | None:
    """The statements replacing the call; None when the builder cannot be moved faithfully."""
    assign = site.stmt.body[0]
    assert isinstance(assign, cst.Assign)
    target = assign.targets[0].target
    body = _lifted_return(list(func.body.body), lines)  # type: ignore[union-attr]
    returned = body[-1].body[0].value  # type: ignore[attr-defined]
    body = body[:-1]
    if body and is_docstring(body[0]):
        body = body[1:]
    param_names = [p.name.value for p in func.params.params]
    single = _single_assignment(
        body,
        returned,
        set(param_names),
        _variable_names(cst.IndentedBlock(body=body), aliases),
        _member_free_names(module) | set(param_names),
        lines,
    )
    if single is None:
        return None
    body, returned = single
    block = cst.IndentedBlock(body=body)
    local = _bound(block) | set(param_names)
    builder_names = _member_free_names(block) | _member_free_names(returned) | local
    free = builder_names - local
    owner_body = site.owner
    caller_names = _member_free_names(owner_body, skip=(site.stmt, func))
    if isinstance(site.owner, cst.FunctionDef):
        params = {p.name.value for p in site.owner.params.params}
        caller_names |= params
        if free & (_bound(owner_body) | params):
            return None  # the builder reads a global the calling function shadows
    targets = _name_elements(target)
    bindings = _bindings(func, site.call)
    if bindings is None:
        return None
    rename: dict[str, str] = {}
    bound_after: list[tuple[str, cst.BaseExpression]] = []  # caller's name = returned expression
    # A parameter passed the caller's own name is that name, unless the builder rebinds it.
    aliased = {
        p
        for p, v in bindings.items()
        if isinstance(v, cst.Name) and v.value == p and p not in _bound(block)
    }
    substituted = _substituted(site, block, {p: v for p, v in bindings.items() if p not in aliased})
    aliased |= substituted.keys()
    # Returned names take the names the caller gives them.
    replaced: dict[str, str] = {}  # `g["key"]` source -> local name, for a dict result
    if isinstance(returned, cst.Dict) and isinstance(target, cst.Name):
        entries = _dict_entries(returned, local)
        if entries is None or not _only_subscripted(owner_body, target.value, entries, site.stmt):
            return None
        replaced = entries
    elif targets is not None:
        sources = list(returned.elements) if isinstance(returned, cst.Tuple) else [returned]
        if len(sources) != len(targets) or (
            len(targets) > 1 and not isinstance(returned, cst.Tuple)
        ):
            return None
        for element, name in zip(sources, targets):
            source = element.value if isinstance(element, cst.Element) else element
            if (
                isinstance(source, cst.Name)
                and source.value in local - set(param_names)
                and source.value not in rename
            ):
                if name != source.value and name in builder_names:
                    return None
                rename[source.value] = name
            else:
                bound_after.append((name, source))
        caller_names |= {name for name, _ in bound_after}
    else:
        return None
    taken = builder_names | caller_names | _member_free_names(module)
    for name in sorted(local - set(rename) - aliased):
        if name in caller_names:
            rename[name] = _fresh(name, taken)
            suffixed[rename[name]] = name
    for key, name in list(replaced.items()):
        replaced[key] = rename.get(name, name)
    prologue = [
        cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(rename.get(p, p)))], value)])
        for p, value in bindings.items()
        if p not in aliased
    ]
    rename.update(substituted)
    moved: list[cst.BaseStatement] = []
    for stmt in body:
        new = stmt.visit(ReplaceNames(rename)) if rename else stmt
        copy_lines(stmt, new, lines)
        moved.append(new)  # type: ignore[arg-type]
    for name, source in bound_after:
        value = source.visit(ReplaceNames(rename)) if rename else source
        moved.append(
            cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value)])
        )  # type: ignore[arg-type]
        record_line(lines, moved[-1], lines.get(id(site.stmt), 0))
    out = prologue + moved
    if not out:
        return None
    for stmt in prologue:
        record_line(lines, stmt, lines.get(id(site.stmt), 0))
    first = out[0].with_changes(
        leading_lines=list(site.stmt.leading_lines) + list(out[0].leading_lines)
    )
    copy_lines(out[0], first, lines)
    out[0] = first
    return _Inlined(out, (target.value, replaced) if replaced else None)  # type: ignore[union-attr]


def _substituted(site: _Site, block: cst.IndentedBlock, bindings: dict[str, cst.BaseExpression]) -> dict[str, str]:
    """Parameters read as the caller's name they are passed (`labels` of `losses(logits,
    train_labels)` read as `train_labels`), so the inlined body needs no `labels = train_labels`:
    the builder binds neither name. And a parameter passed the caller's own name that the
    builder rebinds, when the caller reads that name nowhere after the call (`features =
    tf.cast(features, ...)` then changes nothing it reads)."""
    # a nested scope may bind the names again: renaming reads there is left to `rename`
    nested = any(isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) for n in walk(block))
    bound = _bound(block)
    found: dict[str, str] = {}
    for param, value in bindings.items():
        if not isinstance(value, cst.Name):
            continue
        if value.value != param and param not in bound and value.value not in bound and not nested:
            found[param] = value.value
        elif value.value == param and param in bound and not _read_after(site, param):
            found[param] = param
    return found


def _read_after(site: _Site, name: str) -> bool:
    """The caller may read `name` after the call: it is a module's global, a statement after
    the call in its block or an enclosing one reads it, a closure of the caller reads it, or
    the call is in a loop."""
    path = _path_to(site.owner, site.stmt)
    if isinstance(site.owner, cst.Module) or path is None or any(isinstance(n, (cst.For, cst.While)) for n in path):
        return True
    closures = [n for n in walk(site.owner.body) if isinstance(n, (cst.FunctionDef, cst.Lambda))]
    if any(n.value == name for c in closures for n in names_read(c)):
        return True  # a closure of the caller may read it when called later
    on_path = {id(n) for n in path}
    for node in path:
        block = getattr(node, "body", None)
        statements = getattr(block, "body", None)
        if not isinstance(statements, (list, tuple)):
            continue
        index = next((i for i, s in enumerate(statements) if id(s) in on_path), None)
        if index is not None and any(n.value == name for s in statements[index + 1:] for n in names_read(s)):
            return True
    return False


def _path_to(root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `target`, both included."""
    if root is target:
        return [root]
    for child in children(root):
        found = _path_to(child, target)
        if found is not None:
            return [root, *found]
    return None


def _single_assignment(
    body: list[cst.BaseStatement],
    returned: cst.BaseExpression,
    params: set[str],
    variables: set[str],
    taken: set[str],
    lines: dict[int, int],
) -> tuple[list[cst.BaseStatement], cst.BaseExpression] | None:
    """The body with each name of a variable bound once: from its second binding on, a fresh
    name (the inlined bindings share the caller's scope, where steps read a variable by the name
    it was last bound to; tensors are replayed in order and keep their names). None when such a
    name is bound outside straight-line code."""
    counts: dict[str, int] = dict.fromkeys(params, 1)
    for target in (
        n for n in walk(cst.IndentedBlock(body=body)) if isinstance(n, cst.AssignTarget)
    ):
        for name in _bound(target):
            counts[name] = counts.get(name, 0) + 1
    rebound = {name for name, count in counts.items() if count > 1} & variables
    if not rebound:
        return body, returned
    taken = taken | _member_free_names(cst.IndentedBlock(body=body))
    current: dict[str, str] = {}
    seen = set(params)

    def convert(stmt: cst.BaseStatement, scope: str | None = None) -> cst.BaseStatement | None:
        if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
            items = [i.visit(ReplaceNames(current)) for i in stmt.items]
            if any(_bound(i) & rebound for i in stmt.items):
                return None
            inner = [convert(s, _scope_name(stmt) or scope) for s in stmt.body.body]
            if any(s is None for s in inner):
                return None
            return stmt.with_changes(items=items, body=stmt.body.with_changes(body=inner))
        assigns = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ()
        if not all(isinstance(a, (cst.Assign, cst.Expr)) for a in assigns) or not assigns:
            return None if _bound(stmt) & rebound else stmt.visit(ReplaceNames(current))  # type: ignore[return-value]
        small: list[cst.BaseSmallStatement] = []
        for a in assigns:
            read = (
                a.visit(ReplaceNames(current))
                if isinstance(a, cst.Expr)
                else a.with_changes(
                    value=a.value.visit(ReplaceNames(current))  # type: ignore[union-attr]
                )
            )
            if isinstance(a, cst.Assign):
                fresh: dict[str, str] = {}
                for name in sorted(_bound(a) & rebound):
                    if name in seen:
                        fresh[name] = _fresh(name, taken, scope)
                    seen.add(name)
                read = read.with_changes(  # type: ignore[union-attr]
                    targets=[t.visit(ReplaceNames(fresh)) for t in read.targets]  # type: ignore[attr-defined]
                )
                current.update(fresh)
            small.append(read)  # type: ignore[arg-type]
        return stmt.with_changes(body=small)

    out: list[cst.BaseStatement] = []
    for stmt in body:
        new = convert(stmt)
        if new is None:
            return None
        copy_lines(stmt, new, lines)
        out.append(new)
    return out, returned.visit(ReplaceNames(current))  # type: ignore[return-value]


def _member_free_names(node: cst.CSTNode, skip: tuple[cst.CSTNode, ...] = ()) -> set[str]:
    """Plain names spelled in a subtree (but not in `skip`), attribute members and keywords aside."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if any(current is s for s in skip):
            continue
        if isinstance(current, cst.Name):
            found.add(current.value)
            continue
        if isinstance(current, cst.Attribute):
            stack.append(current.value)
            continue
        if isinstance(current, cst.Arg):
            stack.append(current.value)
            continue
        stack.extend(children(current))
    return found


def _bindings(func: cst.FunctionDef, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """Each parameter's value at this call (argument or default); None if one has none."""
    if any(a.star for a in call.args):
        return None
    params = func.params.params
    bound = call_args(call, tuple(p.name.value for p in params))
    if set(bound) - {p.name.value for p in params}:
        return None
    out: dict[str, cst.BaseExpression] = {}
    for p in params:
        value = bound.get(p.name.value, p.default)
        if value is None:
            return None
        out[p.name.value] = value
    return out


def _name_elements(expr: cst.BaseExpression) -> list[str] | None:
    if isinstance(expr, cst.Name):
        return [expr.value]
    if isinstance(expr, (cst.Tuple, cst.List)) and all(
        isinstance(e.value, cst.Name) for e in expr.elements
    ):
        return [e.value.value for e in expr.elements]  # type: ignore[attr-defined]
    return None


def _dict_entries(returned: cst.Dict, local: set[str]) -> dict[str, str] | None:
    """key -> local name of a returned `{"key": name, ...}`."""
    entries: dict[str, str] = {}
    for element in returned.elements:
        if not (
            isinstance(element, cst.DictElement)
            and isinstance(element.key, cst.SimpleString)
            and isinstance(element.value, cst.Name)
            and element.value.value in local
        ):
            return None
        entries[str(element.key.evaluated_value)] = element.value.value
    return entries


def _only_subscripted(
    owner: cst.CSTNode, name: str, entries: dict[str, str], skip: cst.CSTNode
) -> bool:
    """`name` is read only as `name["key"]` with a returned key, and bound only at the call."""
    if name in _bound(owner) - _bound(skip):
        return False
    subscripted: set[int] = set()
    for n in walk(owner):
        if isinstance(n, cst.Subscript) and isinstance(n.value, cst.Name) and n.value.value == name:
            key = _key(n)
            if key is None or key not in entries:
                return False
            subscripted.add(id(n.value))
    target = skip.body[0].targets[0].target  # type: ignore[attr-defined]
    return all(
        id(n) in subscripted or n is target
        for n in walk(owner)
        if isinstance(n, cst.Name) and n.value == name
    )


def _key(sub: cst.Subscript) -> str | None:
    if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
        return None
    value = sub.slice[0].slice.value
    return str(value.evaluated_value) if isinstance(value, cst.SimpleString) else None


def _scope_name(stmt: cst.With) -> str | None:
    """The literal name of `with tf.name_scope("linear"):` (or a variable_scope), as a prefix
    of the names bound in it."""
    call = stmt.items[0].item if len(stmt.items) == 1 else None
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
            and call.func.attr.value in ("name_scope", "variable_scope") and call.args
            and isinstance(call.args[0].value, cst.SimpleString)):
        return None
    name = str(call.args[0].value.evaluated_value).replace("-", "_")
    return name if name.isidentifier() else None


def _fresh(name: str, taken: set[str], scope: str | None = None) -> str:
    """`linear_weights` for `weights` bound again under the scope `linear`; else `weights_2`."""
    if scope is not None and f"{scope}_{name}" not in taken:
        taken.add(f"{scope}_{name}")
        return f"{scope}_{name}"
    n = 2
    while f"{name}_{n}" in taken:
        n += 1
    taken.add(f"{name}_{n}")
    return f"{name}_{n}"


class _Subscripts(cst.CSTTransformer):
    """`g["key"]` → the local name the builder returned under that key."""

    def __init__(self, name: str, entries: dict[str, str]) -> None:
        super().__init__()
        self.name = name
        self.entries = entries

    def leave_Subscript(
        self, original: cst.Subscript, updated: cst.Subscript
    ) -> cst.BaseExpression:
        if isinstance(original.value, cst.Name) and original.value.value == self.name:
            key = _key(original)
            if key is not None:
                return cst.Name(self.entries[key])
        return updated


def _replace(
    module: cst.Module,
    func: cst.FunctionDef,
    site: _Site,
    inlined: _Inlined,
    lines: dict[int, int],
) -> cst.Module:
    """The module without the builder's def, its call replaced by the inlined statements."""
    respell = _Subscripts(*inlined.subscripts) if inlined.subscripts else None

    def fix_owner(body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        for stmt in body:
            if stmt is site.stmt:
                out.extend(inlined.stmts)
                continue
            if respell is not None:
                new = stmt.visit(respell)
                copy_lines(stmt, new, lines)
                stmt = new  # type: ignore[assignment]
            out.append(stmt)
        return out

    new_body: list[cst.BaseStatement] = []
    for stmt in module.body:
        if stmt is func:
            continue
        if stmt is site.owner:
            owner = site.owner
            assert isinstance(owner, cst.FunctionDef)
            owner_body = fix_owner(list(owner.body.body))  # type: ignore[union-attr]
            stmt = owner.with_changes(body=owner.body.with_changes(body=owner_body))
            record_line(lines, stmt, lines.get(id(owner), 0))
        new_body.append(stmt)
    if site.owner is module:
        new_body = fix_owner(new_body)
    return module.with_changes(body=new_body)
