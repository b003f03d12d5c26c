"""Graph classes scoped by a constructor argument (`QNetwork("online")`, `QNetwork("target")`).

RL and GAN code names each instance's variables by a scope its constructor is given
(`with tf.variable_scope(scope):`) and lists them back by that scope
(`tf.trainable_variables(scope=self.scope)`). The variables keep TF1's names
(`f"{scope}/w1"`); the listing becomes the instance's own variables, in creation order.
"""

from __future__ import annotations

import builtins

import libcst as cst

from .codegen import copy_lines
from .graph import call_args, names_read
from .scope_reads import bound_names
from .walk import transform, walk

SELF = "self__"

#: TF1 calls listing the trainable variables under a scope, with their parameter order.
SCOPE_LISTINGS = {
    "trainable_variables": ("scope",),
    "get_collection": ("key", "scope"),
}
TRAINABLE_KEY = "GraphKeys.TRAINABLE_VARIABLES"
VARIABLE_CALLS = ("get_variable", "Variable")
INCOMPLETE = "<variables the rewrite cannot list>"


def scope_arguments(cls: cst.ClassDef, init: cst.FunctionDef) -> dict[str, str]:
    """Names holding a constructor argument for the whole class, by the parameter they hold:
    `__init__` parameters it never rebinds, and attributes set once from one (`self.scope =
    scope`) by their class-scope name (`self__scope`)."""
    body = list(init.body.body)  # type: ignore[union-attr]
    rebound = {n for s in body for n in bound_names(s)}
    params = {p.name.value for p in init.params.params[1:]} - rebound
    sets: dict[str, list[cst.BaseExpression]] = {}
    for node in walk(cls.body):
        targets: list[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for element in (
                target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]
            ):
                value = element.value if isinstance(element, cst.BaseElement) else element
                if (
                    isinstance(value, cst.Attribute)
                    and isinstance(value.value, cst.Name)
                    and value.value.value == "self"
                ):
                    given = (
                        node.value
                        if isinstance(node, cst.Assign) and len(targets) == 1 and value is target
                        else None
                    )
                    sets.setdefault(value.attr.value, []).append(given)  # type: ignore[arg-type]
    held = {
        SELF + attr: values[0].value
        for attr, values in sets.items()
        if len(values) == 1 and isinstance(values[0], cst.Name) and values[0].value in params
    }
    return {**{p: p for p in params}, **held}


def scoped_lists(
    cls: cst.ClassDef, init: cst.FunctionDef, aliases, lines: dict[int, int]
) -> tuple[cst.ClassDef, list[int]]:
    """The class with each listing of a constructor-named scope's trainable variables replaced
    by those variables (made attributes when a method other than `__init__` lists them), and
    the lines of the listings replaced."""
    arguments = scope_arguments(cls, init)
    created = {
        param: names
        for param, names in _scope_variables(list(init.body.body), arguments, aliases, None).items()  # type: ignore[union-attr]
        if INCOMPLETE not in names
    }
    if not created:
        return cls, []
    taken = {n.value for n in walk(cls.body) if isinstance(n, cst.Attribute) for n in [n.attr]}
    members = [m for m in cls.body.body if isinstance(m, cst.FunctionDef)]  # type: ignore[union-attr]
    listed: dict[int, tuple[str, bool]] = {}  # call id -> (parameter, read in a method)
    for member in members:
        for call in walk(member):
            if isinstance(call, cst.Call):
                param = _listed_scope(call, arguments, aliases, inside_init=member is init)
                if param is not None and param in created:
                    listed[id(call)] = (param, member is not init)
    if not listed:
        return cls, []
    as_attributes = {n for param, in_method in listed.values() if in_method for n in created[param]}
    if as_attributes & taken:
        return cls, []  # an attribute of that name exists: the variables stay locals
    replaced: list[int] = []

    def listing(call: cst.Call) -> cst.BaseExpression:
        param, in_method = listed[id(call)]
        replaced.append(lines.get(id(call), 0))
        names = [f"self.{n}" if in_method or n in as_attributes else n for n in created[param]]
        return cst.parse_expression(f"[{', '.join(names)}]")

    new_cls = transform(cls, _Replace(listed, listing, as_attributes, init))
    copy_lines(cls, new_cls, lines)
    return new_cls, replaced  # type: ignore[return-value]


class _Replace(cst.CSTTransformer):
    """Listing calls → the listed variables; in `__init__`, the variables made attributes."""

    def __init__(
        self,
        listed: dict[int, tuple[str, bool]],
        listing,
        as_attributes: set[str],
        init: cst.FunctionDef,
    ) -> None:
        super().__init__()
        self.listed, self.listing, self.as_attributes = listed, listing, as_attributes
        self.renamed: set[int] = set()
        if as_attributes:
            body = init.body
            self.renamed = {id(n) for n in names_read(body) if n.value in as_attributes}
            self.renamed |= {
                id(n)
                for n in walk(body)
                if isinstance(n, cst.AssignTarget)
                for n in [n.target]
                if isinstance(n, cst.Name) and n.value in as_attributes
            }

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return self.listing(original) if id(original) in self.listed else updated

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if id(original) in self.renamed:
            return cst.Attribute(value=cst.Name("self"), attr=cst.Name(updated.value))
        return updated


def _listed_scope(
    call: cst.Call, arguments: dict[str, str], aliases, inside_init: bool
) -> str | None:
    """The constructor parameter naming the scope a trainable-variable listing filters by."""
    path = aliases.resolve(call.func)
    if path not in SCOPE_LISTINGS:
        return None
    args = call_args(call, SCOPE_LISTINGS[path])
    if path == "get_collection" and (
        "key" not in args or aliases.resolve(args["key"]) != TRAINABLE_KEY
    ):
        return None
    scope = args.get("scope")
    if set(args) - {"key", "scope"}:
        return None
    if (
        isinstance(scope, cst.Attribute)
        and isinstance(scope.value, cst.Name)
        and scope.value.value == "self"
    ):
        return arguments.get(SELF + scope.attr.value)
    if isinstance(scope, cst.Name) and inside_init:
        return arguments.get(scope.value)
    return None


def _scope_variables(
    body: list[cst.BaseStatement],
    arguments: dict[str, str],
    aliases,
    param: str | None,
) -> dict[str, list[str]]:
    """The trainable variables bound to plain names under each constructor-named
    variable_scope, by the parameter naming it, in creation order."""
    found: dict[str, list[str]] = {}
    for stmt in body:
        if isinstance(stmt, cst.With):
            inner = param
            for item in stmt.items:
                call = item.item
                if (
                    isinstance(call, cst.Call)
                    and aliases.resolve(call.func) == "variable_scope"
                    and len(call.args) == 1
                ):
                    name = call.args[0].value
                    key = (
                        name.value
                        if isinstance(name, cst.Name)
                        else (
                            SELF + name.attr.value
                            if isinstance(name, cst.Attribute)
                            and isinstance(name.value, cst.Name)
                            and name.value.value == "self"
                            else None
                        )
                    )
                    inner = arguments.get(key or "", inner)
            for key, names in _scope_variables(
                list(stmt.body.body), arguments, aliases, inner
            ).items():  # type: ignore[union-attr]
                found.setdefault(key, []).extend(names)
            continue
        if param is None:
            continue
        plain = [
            small
            for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [])
            if isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and isinstance(small.value, cst.Call)
            and aliases.resolve(small.value.func) in VARIABLE_CALLS
        ]
        others = [
            c
            for c in walk(stmt)
            if isinstance(c, cst.Call) and not any(c is p.value for p in plain)
        ]
        if any(_may_create(c, aliases) for c in others):
            found[param] = [INCOMPLETE]
        for small in plain:
            if _trainable(small.value) and found.get(param) != [INCOMPLETE]:  # type: ignore[arg-type]
                found.setdefault(param, []).append(small.targets[0].target.value)  # type: ignore[union-attr]
    return found


def _may_create(call: cst.Call, aliases) -> bool:
    """A call that may create variables the listing would miss: a variable or layer made
    elsewhere than a plain assignment, or a call of user code."""
    path = aliases.resolve(call.func)
    if path is not None:
        return path in VARIABLE_CALLS or path.startswith(
            ("layers.", "keras.", "contrib.", "nn.rnn_cell.", "nn.dynamic_rnn")
        )
    func = call.func
    return not (isinstance(func, cst.Name) and hasattr(builtins, func.value)) and not isinstance(
        func, cst.Attribute
    )


def _trainable(call: cst.Call) -> bool:
    flag = next(
        (a.value for a in call.args if a.keyword is not None and a.keyword.value == "trainable"),
        None,
    )
    return flag is None or (isinstance(flag, cst.Name) and flag.value == "True")
