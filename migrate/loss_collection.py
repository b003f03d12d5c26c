"""A weight helper's `'losses'` collection → the variable's own regularizer (TF104).

TF1 tutorials (the MNIST chapters of many books) create weights through a helper that puts the
weight's penalty into a user collection and read the collection's sum into the loss:

    def get_weight_variable(shape, regularizer):
        weights = tf.get_variable("weights", shape, initializer=...)
        if regularizer != None:
            tf.add_to_collection('losses', regularizer(weights))
        return weights
    ...
    loss = cross_entropy_mean + tf.add_n(tf.get_collection('losses'))

When the helper's penalties are all the collection holds, and nothing else regularizes, this is
TF1's own `tf.get_variable(..., regularizer=regularizer)` read through
`tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)`: the same tensors, each computed from its
variable once per graph (so again each step from the current weight). Spelled so, the helper is a
pure get_variable wrapper, and the layers built from it own their penalties (`model.losses`).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from .api_table import REGULARIZERS
from .codegen import (
    ATOMS,
    ReplaceNames,
    comments,
    copy_lines,
    inner_comments,
    is_docstring,
    record_line,
)
from .graph import call_args, top_level_defs
from .imports import Aliases
from .report import Finding
from .rules.variable_scope import RULE
from .variable_layers import regularized_variable, variable_call
from .walk import children, walk

COLLECTION = "losses"


def _collection_call(node: cst.CSTNode, aliases: Aliases, path: str) -> bool:
    """A `tf.<path>('losses', ...)` call."""
    return (
        isinstance(node, cst.Call)
        and aliases.resolve(node.func) == path
        and bool(node.args)
        and node.args[0].keyword is None
        and isinstance(node.args[0].value, cst.SimpleString)
        and node.args[0].value.evaluated_value == COLLECTION
    )


def _collection_uses(module: cst.Module, aliases: Aliases) -> tuple[list[cst.Call], list[cst.Call]]:
    """The module's `tf.add_to_collection('losses', ...)` and `tf.get_collection('losses')` calls;
    none when the collection's name stands anywhere else (a key the passes cannot follow)."""
    calls = [n for n in walk(module) if isinstance(n, cst.Call)]
    adds = [c for c in calls if _collection_call(c, aliases, "add_to_collection")]
    reads = [c for c in calls if _collection_call(c, aliases, "get_collection")]
    mentions = [n for n in walk(module) if isinstance(n, cst.SimpleString) and n.evaluated_value == COLLECTION]
    return (adds, reads) if len(mentions) == len(adds) + len(reads) else ([], [])


def _assigned_get_variable(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str, cst.Call] | None:
    """(name, call) of `name = tf.get_variable(...)` with no regularizer of its own."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return None
    assign = stmt.body[0]
    value = assign.value
    if not (
        len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and isinstance(value, cst.Call)
        and aliases.resolve(value.func) == "get_variable"
        and not any(a.star for a in value.args)
        and len([a for a in value.args if a.keyword is None]) <= 4  # `regularizer` is the 5th
        and not any(a.keyword is not None and a.keyword.value == "regularizer" for a in value.args)
    ):
        return None
    return assign.targets[0].target.value, value


def _guarded_entry(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str | None, cst.BaseExpression] | None:
    """(the guard's parameter, the entry) of `tf.add_to_collection('losses', <entry>)`, maybe
    under `if r != None:` / `if r is not None:` / `if r:` (a None regularizer adds nothing)."""
    guard: str | None = None
    if isinstance(stmt, cst.If):
        guard = _guard_param(stmt)
        if guard is None or stmt.orelse is not None or len(stmt.body.body) != 1:
            return None
        # the add in the if's block, or after its colon (`if r != None: tf.add_to_collection(...)`)
        stmt = stmt.body if isinstance(stmt.body, cst.SimpleStatementSuite) else stmt.body.body[0]  # type: ignore[assignment]
    if not (isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Expr)):
        return None
    call = stmt.body[0].value
    if not (_collection_call(call, aliases, "add_to_collection") and len(call.args) == 2):  # type: ignore[arg-type]
        return None
    return guard, call.args[1].value  # type: ignore[union-attr]


def _guarded_add(stmt: cst.BaseStatement, aliases: Aliases, var: str, params: set[str]) -> str | None:
    """The regularizer parameter `r` of `tf.add_to_collection('losses', r(var))`, guarded or not."""
    found = _guarded_entry(stmt, aliases)
    if found is None:
        return None
    guard, penalty = found
    if not (_penalty_of(penalty, var) and isinstance(penalty.func, cst.Name)  # type: ignore[attr-defined]
            and penalty.func.value in params):  # type: ignore[attr-defined]
        return None
    regularizer = penalty.func.value  # type: ignore[attr-defined]
    return regularizer if guard in (None, regularizer) else None


def _penalty_of(penalty: cst.BaseExpression, var: str) -> bool:
    """`<regularizer>(var)`: one positional argument, the variable."""
    return (isinstance(penalty, cst.Call) and len(penalty.args) == 1 and penalty.args[0].keyword is None
            and not penalty.args[0].star and isinstance(penalty.args[0].value, cst.Name)
            and penalty.args[0].value.value == var)


def _scaled_add(stmt: cst.BaseStatement, aliases: Aliases, var: str, params: set[str]) -> str | None:
    """The regularizer, as source, of `tf.add_to_collection('losses', tf.contrib.layers.
    l2_regularizer(r)(var))` (the PKU course's helper, given the scale `r`): built from the scale
    where the guard lets it add (`... if r != None else None`: a None scale adds nothing)."""
    found = _guarded_entry(stmt, aliases)
    if found is None:
        return None
    guard, penalty = found
    made = penalty.func if isinstance(penalty, cst.Call) else None  # type: ignore[attr-defined]
    if not (_penalty_of(penalty, var) and isinstance(made, cst.Call) and aliases.resolve(made.func) in REGULARIZERS
            and len(made.args) == 1 and isinstance(made.args[0].value, cst.Name) and not made.args[0].star
            and made.args[0].value.value in params and guard in (None, made.args[0].value.value)):
        return None
    source = cst.Module([]).code_for_node(made)
    if guard is None:
        return source
    test = stmt.test  # type: ignore[attr-defined]
    return f"{source} if {cst.Module([]).code_for_node(test)} else None"


def called_in_functions_only(module: cst.Module, name: str) -> bool:
    """Every call of ``name`` stands in a top-level function's body, none at the top level."""
    for stmt in module.body:
        if type(stmt) is cst.FunctionDef:
            continue
        if any(isinstance(n, cst.Name) and n.value == name for n in walk(stmt)):
            return False
    return True


def _regularized_helper(
    func: cst.FunctionDef, aliases: Aliases, lines: dict[int, int], variables: bool,
) -> cst.FunctionDef | None:
    """The helper with its collection entry as the weight's `regularizer=`, or None when it is
    not `v = tf.get_variable(...)` (or, where only model functions call it, `variables`,
    `v = tf.Variable(...)`: a layer's weight then), the guarded add, `return v`. TF1's Variable
    takes no regularizer: the layer conversion reads it, and no other code sees the helper."""
    stmts = list(func.body.body)
    docstring = stmts[:1] if stmts and is_docstring(stmts[0]) else []
    body = stmts[len(docstring):]
    params = {p.name.value for p in func.params.params}
    if len(body) != 3 or func.decorators:
        return None
    created = _assigned_get_variable(body[0], aliases)
    if created is not None:
        var, call = created
        regularizer = _guarded_add(body[1], aliases, var, params)
    else:
        # `w = tf.Variable(...)`: the weight's regularizer a layer's `add_weight` is given
        made = variable_call(body[0], aliases) if variables else None
        if made is None or regularized_variable(made[1], aliases):
            return None
        var, call = made
        regularizer = _guarded_add(body[1], aliases, var, params) or _scaled_add(body[1], aliases, var, params)
    last = body[2]
    returns = (
        isinstance(last, cst.SimpleStatementLine)
        and len(last.body) == 1
        and isinstance(last.body[0], cst.Return)
        and isinstance(last.body[0].value, cst.Name)
        and last.body[0].value.value == var
    )
    if regularizer is None or not returns:
        return None
    arg = cst.Arg(keyword=cst.Name("regularizer"), value=cst.parse_expression(regularizer),
                  equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
    regularized = call.with_changes(args=[*call.args[:-1], call.args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT), arg])
    notes = [*comments(body[1].leading_lines), *inner_comments(body[1])]  # the add's, above its weight
    first = body[0].with_changes(body=[body[0].body[0].with_changes(value=regularized)],  # type: ignore[attr-defined]
                                 leading_lines=[*body[0].leading_lines, *notes])
    copy_lines(body[0], first, lines)
    new = func.with_changes(body=func.body.with_changes(body=[*docstring, first, last]))
    record_line(lines, new, lines.get(id(func), 0))
    record_line(lines, new.body, lines.get(id(func.body), 0))
    return new


def _regularized_blocks(func: cst.FunctionDef, aliases: Aliases, lines: dict[int, int]) -> cst.FunctionDef | None:
    """A model function with each `v = tf.get_variable(...)` followed by its guarded entry
    (`if regularizer != None: tf.add_to_collection('losses', regularizer(v))`, the LeNet-5
    layout of the same books) as `tf.get_variable(..., regularizer=regularizer)`, in its body
    or its `with` blocks; None when an entry of the function is not so placed."""
    params = {p.name.value for p in func.params.params}
    paired = 0

    def block(stmts: Sequence[cst.BaseStatement]) -> list[cst.BaseStatement]:
        nonlocal paired
        out: list[cst.BaseStatement] = []
        for stmt in stmts:
            created = _assigned_get_variable(out[-1], aliases) if out else None
            regularizer = _guarded_add(stmt, aliases, created[0], params) if created else None
            if created is not None and regularizer is not None:
                arg = cst.Arg(keyword=cst.Name("regularizer"), value=cst.Name(regularizer))
                call = created[1]
                regularized = call.with_changes(
                    args=[*call.args[:-1], call.args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT), arg])
                last = out[-1]
                notes = [*comments(stmt.leading_lines), *inner_comments(stmt)]  # the add's, above its weight
                new = last.with_changes(body=[last.body[0].with_changes(value=regularized)],  # type: ignore[attr-defined]
                                        leading_lines=[*last.leading_lines, *notes])
                copy_lines(last, new, lines)
                out[-1] = new
                paired += 1
                continue
            if isinstance(stmt, cst.With) and isinstance(stmt.body, cst.IndentedBlock):
                inner = stmt.body.with_changes(body=block(stmt.body.body))
                new_with = stmt.with_changes(body=inner)
                copy_lines(stmt, new_with, lines)
                stmt = new_with
            out.append(stmt)
        return out

    body = block(func.body.body)  # type: ignore[arg-type]
    if not paired:
        return None
    new = func.with_changes(body=func.body.with_changes(body=body))
    record_line(lines, new, lines.get(id(func), 0))
    record_line(lines, new.body, lines.get(id(func.body), 0))
    return new


def _regularizes_otherwise(module: cst.Module, aliases: Aliases) -> bool:
    """Does anything else regularize, read TF1's regularization losses, or reuse variables (a
    reused get_variable adds no penalty, a helper's add_to_collection adds one per call)?"""
    for node in walk(module):
        if isinstance(node, cst.Arg) and node.keyword is not None and (
            node.keyword.value.endswith("regularizer") or node.keyword.value == "reuse"
        ):
            return True
        if isinstance(node, cst.Attribute) and node.attr.value in ("REGULARIZATION_LOSSES", "reuse_variables"):
            return True
        if isinstance(node, cst.Call) and (aliases.resolve(node.func) or "").startswith("losses.get_regularization"):
            return True
    return False


class _Reads(cst.CSTTransformer):
    """`tf.get_collection('losses')` → `tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)`."""

    def __init__(self, aliases: Aliases) -> None:
        super().__init__()
        self.aliases = aliases

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not _collection_call(original, self.aliases, "get_collection"):
            return updated
        key = cst.Attribute(cst.Attribute(updated.func.value, cst.Name("GraphKeys")), cst.Name("REGULARIZATION_LOSSES"))  # type: ignore[attr-defined]
        return updated.with_changes(args=[updated.args[0].with_changes(value=key), *updated.args[1:]])


def losses_as_regularizers(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding], library: bool = False,
) -> cst.Module:
    """The module with its weight helpers' `'losses'` entries as their variables' regularizers,
    when those entries are all the collection ever holds and its reads are plain
    `tf.get_collection('losses')` calls; the module as it was otherwise. A `library` (a module
    no code of the program imports) reads none: its importers read the layers' `losses`."""
    adds, reads = _collection_uses(module, aliases)
    if not adds:
        return module
    if any(len(c.args) != 1 or not isinstance(c.func, cst.Attribute) for c in reads):
        return module
    if _regularizes_otherwise(module, aliases):
        return module
    added = {id(c) for c in adds}
    helpers: dict[str, tuple[cst.FunctionDef, cst.FunctionDef]] = {}
    held = 0
    for name, func in top_level_defs(module).items():
        inside = sum(1 for n in walk(func) if id(n) in added)
        if inside:
            only_models = called_in_functions_only(module.with_changes(body=[s for s in module.body if s is not func]), name)
            new = _regularized_helper(func, aliases, lines, only_models) or _regularized_blocks(func, aliases, lines)
            if new is None or any(_collection_call(n, aliases, "add_to_collection") for n in walk(new)):
                return module
            helpers[name], held = (func, new), held + inside
    if held != len(adds):
        return module  # an entry added outside the helpers (a cross-entropy, say)
    replaced = {id(old): new for old, new in helpers.values()}
    body: list[cst.BaseStatement] = []
    for stmt in module.body:
        if id(stmt) in replaced:
            body.append(replaced[id(stmt)])
            continue
        read = stmt.visit(_Reads(aliases))
        copy_lines(stmt, read, lines)
        body.append(read)  # type: ignore[arg-type]
    for name, (old, _) in helpers.items():
        readers = "" if reads else (
            f" (code importing this module reads the models' `losses`, not the '{COLLECTION}' collection)" if library
            else f" (nothing reads the '{COLLECTION}' collection)")
        findings.append(Finding(RULE.id, lines.get(id(old), 0), 0, f"{name}(): its '{COLLECTION}' collection entries are "
                                f"its variables' regularizers, read from the layers that own them{readers}", "fixed"))
    return module.with_changes(body=body)


def regularizers_at_calls(module: cst.Module, aliases: Aliases, constants: dict[str, str]) -> dict[int, dict[str, str]]:
    """Id of each call -> name -> source of the regularizers of constant arguments its names
    hold there: bound once at the module's top level (`regularizer = tf.contrib.layers.
    l2_regularizer(0.0001)`) for calls there and in functions not binding the name, or bound once
    in the function making the call (`def train(): regularizer = l2_regularizer(RATE); y =
    inference(x, regularizer)`). A regularizer is stateless, so a model built with that call
    once regularizes as TF1's calls of it did. An argument naming a module constant
    (`constants`: name -> literal) is written as its literal, which holds wherever the model is
    built."""
    if any(isinstance(n, (cst.Global, cst.Nonlocal)) for n in walk(module)):
        return {}
    top = _top_level_nodes(module)
    top_counts: dict[str, int] = {}
    for node in top:
        for name, count in _bindings_of(node).items():
            top_counts[name] = top_counts.get(name, 0) + count
    module_level = _regularizers(module.body, top_counts, aliases, constants)
    found: dict[int, dict[str, str]] = {}
    if module_level:
        found.update({id(c): module_level for c in top if isinstance(c, cst.Call)})
    for func in walk(module):
        if not (isinstance(func, cst.FunctionDef) and isinstance(func.body, cst.IndentedBlock)):
            continue
        counts = _binding_counts(func)
        held = {k: v for k, v in module_level.items() if k not in counts}
        held |= _regularizers(func.body.body, _binding_counts(func.body), aliases, constants)
        if held:
            found.update({id(c): held for c in walk(func.body) if isinstance(c, cst.Call)})
    return found


def _binding_counts(node: cst.CSTNode) -> dict[str, int]:
    """How often each name is bound anywhere in `node` (parameters of functions in it too)."""
    counts: dict[str, int] = {}
    for child in walk(node):
        for name, count in _bindings_of(child).items():
            counts[name] = counts.get(name, 0) + count
    return counts


def _bindings_of(node: cst.CSTNode) -> dict[str, int]:
    """The names `node` itself binds (an assignment's targets, a def's name, a parameter)."""
    targets: list[cst.CSTNode] = []
    if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)):
        targets = [node.target]
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.AsName, cst.Param)):
        targets = [node.name]
    counts: dict[str, int] = {}
    for name in (n for t in targets for n in walk(t)):
        if isinstance(name, cst.Name):
            counts[name.value] = counts.get(name.value, 0) + 1
    return counts


def _regularizers(
    body: Sequence[cst.BaseStatement], counts: dict[str, int], aliases: Aliases, constants: dict[str, str],
) -> dict[str, str]:
    """Name -> source of the regularizers of constant arguments `body`'s own statements bind
    to a name bound once (`counts`)."""
    found: dict[str, str] = {}
    for stmt in body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)):
            continue
        assign = stmt.body[0]
        target, value = assign.targets[0].target, assign.value
        if (
            len(assign.targets) == 1
            and isinstance(target, cst.Name)
            and counts.get(target.value) == 1
            and isinstance(value, cst.Call)
            and aliases.resolve(value.func) in REGULARIZERS
            and all(_constant(a.value, constants) and not a.star for a in value.args)
        ):
            found[target.value] = cst.Module([]).code_for_node(value.visit(_Literals(constants)))
    return found


def _constant(expr: cst.BaseExpression, constants: dict[str, str]) -> bool:
    return isinstance(expr, (cst.Integer, cst.Float)) or isinstance(expr, cst.Name) and expr.value in constants


class _Literals(cst.CSTTransformer):
    """Module constants' names replaced by their literals."""

    def __init__(self, constants: dict[str, str]) -> None:
        super().__init__()
        self.constants = constants

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        value = updated.value
        if isinstance(value, cst.Name) and value.value in self.constants:
            return updated.with_changes(value=cst.parse_expression(self.constants[value.value]))
        return updated


def _top_level_nodes(module: cst.Module) -> list[cst.CSTNode]:
    """The module's nodes outside function and class bodies (their names bind at the top)."""
    found: list[cst.CSTNode] = []
    todo: list[cst.CSTNode] = [module]
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            todo.extend(children(node))
    return found


def _penalty_helper(func: cst.FunctionDef, aliases: Aliases) -> tuple[str | None, cst.Call] | None:
    """(the parameter an `if r != None:` guard tests, the penalty call `pen(v)`) of a
    `v = tf.Variable(...)`, guarded add, `return v` helper: the add is its second statement."""
    body = list(func.body.body)
    if len(body) != 3 or func.decorators:
        return None
    first, add, last = body
    created = variable_call(first, aliases)
    if created is None or not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1
                               and isinstance(last.body[0], cst.Return) and isinstance(last.body[0].value, cst.Name)
                               and last.body[0].value.value == created[0]):
        return None
    found = _guarded_entry(add, aliases)
    if found is None:
        return None
    guard, penalty = found
    if not (isinstance(penalty, cst.Call) and len(penalty.args) == 1 and isinstance(penalty.args[0].value, cst.Name)
            and penalty.args[0].value.value == created[0] and not penalty.args[0].star):
        return None
    return guard, penalty


def _guard_param(guard: cst.If) -> str | None:
    """`r` of `if r != None:`, `if r is not None:` or `if r:`."""
    test = guard.test
    if isinstance(test, cst.Name):
        return test.value
    if (isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.NotEqual, cst.IsNot))
            and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None"):
        return test.left.value
    return None


def variable_penalties_listed(module: cst.Module, aliases: Aliases, lines: dict[int, int],
                              findings: list[Finding]) -> cst.Module:
    """A `tf.Variable` helper's `'losses'` entries listed where the collection is read.

    `def get_weight(shape, r): w = tf.Variable(...); tf.add_to_collection('losses',
    tf.contrib.layers.l2_regularizer(r)(w)); return w`, called at the top level (`w1 =
    get_weight([2, 11], 0.01)`) before `tf.add_n(tf.get_collection('losses'))`: the read is the
    list of those penalties (`[tf.contrib.layers.l2_regularizer(0.01)(w1), ...]`), the same
    tensors of the same graph, and the helper a plain variable helper. Only when every entry
    comes from such calls, each binding a name bound once, and every read follows them all."""
    adds, reads = _collection_uses(module, aliases)
    if not adds or not reads or _regularizes_otherwise(module, aliases):
        return module
    helpers = {name: (func, found) for name, func in top_level_defs(module).items()
               if (found := _penalty_helper(func, aliases)) is not None}
    added, read_ids = {id(c) for c in adds}, {id(c) for c in reads}
    if sum(1 for h, _ in helpers.values() for n in walk(h) if id(n) in added) != len(adds):
        return module
    entries: list[str] = []
    read_at: list[int] = []
    for index, stmt in enumerate(module.body):
        if any(id(n) in read_ids for n in walk(stmt)):
            read_at.append(index)
            continue
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            if any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in helpers
                   for n in walk(stmt) if stmt.name.value not in helpers):
                return module  # a helper called in a function: when it runs is not known here
            continue
        for node in walk(stmt):
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in helpers:
                entry = _entry(module, stmt, node, helpers[node.func.value])
                if entry is None or read_at:
                    return module
                entries.extend(entry)
    if not entries or any(isinstance(module.body[i], (cst.FunctionDef, cst.ClassDef)) for i in read_at):
        return module
    listed = cst.parse_expression(f"[{', '.join(entries)}]")
    body: list[cst.BaseStatement] = []
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in helpers:
            func = helpers[stmt.name.value][0]
            kept = [s for i, s in enumerate(func.body.body) if i != 1]  # the add (`_penalty_helper`)
            new: cst.BaseStatement = func.with_changes(body=func.body.with_changes(body=kept))
            findings.append(Finding(RULE.id, lines.get(id(func), 0), 0, f"{func.name.value}(): its '{COLLECTION}' "
                                    "collection entries listed where the collection is read", "fixed"))
        else:
            new = stmt.visit(_Listed(aliases, listed))
        copy_lines(stmt, new, lines)
        body.append(new)
    return module.with_changes(body=body)


def _entry(module: cst.Module, stmt: cst.BaseStatement, call: cst.Call,
           helper: tuple[cst.FunctionDef, tuple[str | None, cst.Call]]) -> list[str] | None:
    """The penalty `call` of the helper adds, as source over its arguments and its variable's
    name (`name = helper(...)` bound once); [] when a None regularizer adds nothing."""
    func, (guarded, penalty) = helper
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
            and stmt.body[0].value is call and len(stmt.body[0].targets) == 1
            and isinstance(stmt.body[0].targets[0].target, cst.Name)):
        return None
    name = stmt.body[0].targets[0].target.value
    params = [p.name.value for p in func.params.params]
    if any(a.star for a in call.args) or _binding_counts(module).get(name) != 1:
        return None
    bound = call_args(call, tuple(params))
    if len(call.args) > len(params) or set(bound) - set(params):
        return None
    for p in func.params.params:
        if p.name.value not in bound and p.default is not None:
            bound[p.name.value] = p.default
    if guarded is not None:
        given = bound.get(guarded)
        if isinstance(given, cst.Name) and given.value == "None":
            return []
        if not isinstance(given, (cst.Integer, cst.Float, cst.Call)):
            return None  # whether it adds depends on a value known when it runs
    reads = {n.value for n in walk(penalty) if isinstance(n, cst.Name)}
    if reads & set(params) - set(bound):
        return None
    mapping = {p: (code if isinstance(v, ATOMS) else f"({code})")
               for p, v in bound.items() for code in [cst.Module([]).code_for_node(v)]}
    source = cst.Module([]).code_for_node(penalty.func.visit(ReplaceNames(mapping)))
    return [f"{source}({name})"]


class _Listed(cst.CSTTransformer):
    """`tf.get_collection('losses')` → the list of its entries."""

    def __init__(self, aliases: Aliases, listed: cst.BaseExpression) -> None:
        super().__init__()
        self.aliases, self.listed = aliases, listed

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return self.listed if _collection_call(original, self.aliases, "get_collection") else updated
