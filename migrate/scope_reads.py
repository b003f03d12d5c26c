"""What a statement of TF1 model code binds and reads, for TF104's conversion and its callers.

Pure functions of the syntax tree, kept apart from the Layer and Model classes that use them
(`scoped_layers`, `scoped_models`) since the graph-class, inlining and step passes ask the
same questions: the names a statement binds or reads, what later statements read before
binding, the literal constants of a module and of a call's arguments, and the variable_scopes
each function call runs under.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from .graph import memoised_walk, names_read
from .imports import Aliases
from .walk import children, walk


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def calls_in_statements(stmts: list[cst.BaseStatement]) -> list[cst.Call]:
    """Every call in the statements, in the order a walk of each meets them."""
    return [node for stmt in stmts for node in walk(stmt) if isinstance(node, cst.Call)]


def call_scopes(module: cst.Module, aliases: Aliases) -> dict[str, set[str]]:
    """For each plain name called in the module, the variable_scope paths its calls run under
    ("" outside any), counting only scopes opened in the same function or at the top level."""
    return memoised_walk("call_scopes", module, lambda node: _call_scopes(node, aliases))


def _call_scopes(module: cst.Module, aliases: Aliases) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    stack: list[str | None] = []  # a scope name, or None for an unknown one

    def scope_of(node: cst.With) -> str | None | bool:
        calls = [i.item for i in node.items if isinstance(i.item, cst.Call)
                 and aliases.resolve(i.item.func) == "variable_scope"]
        if not calls:
            return False
        args = calls[0].args
        literal = len(calls) == 1 and len(args) == 1 and isinstance(args[0].value, cst.SimpleString)
        return str(args[0].value.evaluated_value) if literal else None  # type: ignore[union-attr]

    def visit(node: cst.CSTNode) -> None:
        opened = False
        if isinstance(node, cst.With):
            scope = scope_of(node)
            if scope is not False:
                stack.append(scope)  # type: ignore[arg-type]
                opened = True
        elif isinstance(node, cst.FunctionDef):
            stack.append("")  # a function's body starts outside the caller's scopes
            opened = True
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            last = max((i for i, s in enumerate(stack) if s == ""), default=-1)
            inner = stack[last + 1:]
            path = "?" if None in inner else "/".join(s for s in inner if s)
            found.setdefault(node.func.value, set()).add(path)
        for child in children(node):
            visit(child)
        if opened:
            stack.pop()

    visit(module)
    return found


def bound_names(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds: assignment, loop and `with ... as` targets."""
    found: set[str] = set()
    for node in walk(stmt):
        target = _BINDING_TARGETS.get(type(node))
        if target is not None:
            found.update(n.value for n in target_names(getattr(node, target)))
    return found


#: Nodes that bind names, and the field holding their target.
_BINDING_TARGETS: dict[type, str] = {
    cst.AssignTarget: "target", cst.AugAssign: "target", cst.For: "target", cst.AsName: "name",
}


def target_names(target: cst.CSTNode) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in target_names(e.value)]
    return []


def free_reads(expr: cst.BaseExpression) -> set[str]:
    """Names an expression reads from outside it (a comprehension's own targets are not)."""
    own = {n.value for c in walk(expr) if isinstance(c, cst.CompFor) for n in target_names(c.target)}
    return {n.value for n in names_read(expr)} - own


def constant_arguments(
    call: cst.Call, params: list[cst.Param], constants: dict[str, str] | None = None,
) -> dict[str, str]:
    """Parameter -> source of each argument of `call` that is a literal (numbers, strings,
    lists and tuples of them, True/False/None), or a name `constants` gives one for: a value
    the model can be built with once."""
    names = [p.name.value for p in params]
    found: dict[str, str] = {}
    for index, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (names[index] if index < len(names) else None)
        if name is None or arg.star:
            continue
        if isinstance(arg.value, cst.Name) and arg.value.value in (constants or {}):
            found[name] = (constants or {})[arg.value.value]
        elif _is_literal(arg.value):
            found[name] = _code(arg.value)
    return found


def _is_literal(expr: cst.BaseExpression) -> bool:
    return all(n.value in ("True", "False", "None") for n in names_read(expr)) and all(
        isinstance(n, _LITERAL_NODES) for n in walk(expr)
    )


def module_constants(module: cst.Module) -> dict[str, str]:
    """Name -> literal source of each name the module binds once, at its top level, to a literal
    (`K = 4`, `N, D = 300, 6`) and nowhere else: where it is read, it holds that literal. A list
    that something may change in place (`sizes.append(4)`, `sizes[0] = 8`) is no constant."""
    return _literal_bindings(module, module.body)


def function_constants(func: cst.FunctionDef) -> dict[str, str]:
    """The same of the locals `func` binds once, by a statement of its own (outside its nested
    functions), none of them a parameter: wherever `func` reads them after, they hold that literal."""
    nested = {id(n) for d in walk(func.body) if isinstance(d, (cst.FunctionDef, cst.ClassDef, cst.Lambda))
              for n in walk(d) if n is not d}
    if any(isinstance(n, (cst.Global, cst.Nonlocal)) for n in walk(func.body) if id(n) not in nested):
        return {}
    bindings, changed = _binding_counts(func.body, skip=nested)
    params = func.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        bindings[param.name.value] = bindings.get(param.name.value, 0) + 1
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            bindings[star.name.value] = bindings.get(star.name.value, 0) + 1
    statements = [s for s in walk(func.body) if isinstance(s, cst.SimpleStatementLine) and id(s) not in nested]
    return _literal_pairs(statements, bindings, changed)


def caller_constants(module: cst.Module, call: cst.Call) -> dict[str, str]:
    """The literal constants of the function a call is in (none at the top level): they
    stand over the module's where the function binds the same name."""
    func = memoised_walk("call owners", module, _call_owners).get(id(call))
    return function_constants(func) if func is not None else {}


def _call_owners(module: cst.Module) -> dict[int, cst.FunctionDef]:
    """id(call) -> the innermost function whose body it is in."""
    owners: dict[int, cst.FunctionDef] = {}
    for func in walk(module):
        if isinstance(func, cst.FunctionDef):
            owners.update({id(n): func for n in walk(func.body) if isinstance(n, cst.Call)})
    return owners


def _binding_counts(tree: cst.CSTNode, skip: frozenset[int] | set[int] = frozenset()) -> tuple[dict[str, int], set[str]]:
    """How often the code binds each name, and the names whose value a method or an item
    assignment may change (nodes in `skip` left out)."""
    bindings: dict[str, int] = {}
    changed: set[str] = set()
    for node in (n for n in walk(tree) if id(n) not in skip):
        if isinstance(node, (cst.Attribute, cst.Subscript)) and isinstance(node.value, cst.Name):
            changed.add(node.value.value)
        targets: list[cst.CSTNode] = []
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.AsName)):
            targets = [node.name]
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            targets = [item.name for item in node.names]
        for target in targets:
            for name in walk(target):
                if isinstance(name, cst.Name):
                    bindings[name.value] = bindings.get(name.value, 0) + 1
    return bindings, changed


def _literal_bindings(module: cst.Module, statements: Sequence[cst.BaseStatement]) -> dict[str, str]:
    bindings, changed = memoised_walk("literal binding counts", module, _binding_counts)
    return _literal_pairs(statements, bindings, changed)


def _literal_pairs(statements: Sequence[cst.BaseStatement], bindings: dict[str, int],
                   changed: set[str]) -> dict[str, str]:
    """The literal each statement `name = <literal>` binds to a name bound once."""
    found: dict[str, str] = {}
    for stmt in statements:
        if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)
                and len(stmt.body[0].targets) == 1):
            continue
        target, value = stmt.body[0].targets[0].target, stmt.body[0].value
        pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = [(target, value)]
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)):
            if len(target.elements) != len(value.elements) or any(
                isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)
            ):
                continue
            pairs = [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
        for name, literal in pairs:
            mutable = any(isinstance(n, cst.List) for n in walk(literal))
            if (isinstance(name, cst.Name) and bindings.get(name.value) == 1 and _is_literal(literal)
                    and not (mutable and name.value in changed)):
                found[name.value] = _code(literal)
    return found


_LITERAL_NODES = (
    cst.Integer, cst.Float, cst.SimpleString, cst.Name, cst.List, cst.Tuple, cst.Element, cst.Comma,
    cst.UnaryOperation, cst.Minus, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftParen,
    cst.RightParen, cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.Newline, cst.EmptyLine,
    cst.TrailingWhitespace,
)


def returned_value(stmt: cst.BaseStatement) -> cst.BaseExpression | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Return):
        return stmt.body[0].value
    return None


def statement_reads(stmt: cst.CSTNode) -> set[str]:
    """Names a statement reads (names_read less what it only assigns)."""
    targets: set[int] = set()

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            targets.update(id(n) for n in target_names(node.target))

        def visit_For(self, node: cst.For) -> None:
            targets.update(id(n) for n in target_names(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            targets.update(id(n) for n in target_names(node.name))

    stmt.visit(Targets())
    return {n.value for n in names_read(stmt) if id(n) not in targets}


def live_reads(stmts: list[cst.BaseStatement]) -> set[str]:
    """Names the statements read before binding them (what an earlier statement hands on)."""
    found: set[str] = set()
    rebound: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, cst.With):
            found |= {n for item in stmt.items for n in statement_reads(item)} - rebound
            found |= live_reads(list(stmt.body.body)) - rebound  # type: ignore[arg-type]
        else:
            found |= statement_reads(stmt) - rebound
        rebound |= bound_names(stmt)
    return found


_SHAPE_READS = frozenset({"shape", "get_shape"})


def reads_only_shapes(stmt: cst.BaseStatement, local: set[str]) -> bool:
    """An assignment reading the function's tensors only through `.shape` / `.get_shape()`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return False
    shape_owners = {
        id(n.value) for n in walk(stmt) if isinstance(n, cst.Attribute) and n.attr.value in _SHAPE_READS
    }
    read = [n for n in names_read(stmt.body[0].value) if n.value in local]
    return bool(read) and all(id(n) in shape_owners for n in read)
