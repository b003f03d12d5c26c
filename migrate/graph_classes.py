"""Classes that build a graph in `__init__` (`self.x = tf.placeholder(...)`) and run it in methods.

The class is rewritten with the same program move as a module: `self.<attr>` is read as a name
of the `__init__` scope, the methods are the driver code. Step functions become nested
`tf.function`s of `__init__` (closures over `self`), stored as `self.<fetch>`; persistent
objects stay attributes; tensors become locals of the steps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import libcst as cst

from .class_scopes import scope_arguments, scoped_lists
from .codegen import copy_lines, is_docstring, record_line
from .graph import INSIDE, calls_in, names_read, valueless
from .report import Finding, Unsupported
from .rules.session import RULE as SESSION_RULE
from .rules.variable_scope import RULE as SCOPE_RULE
from .scope_reads import bound_names, call_scopes
from .walk import children, transform, walk

PREFIX = "self__"


class _SelfToNames(cst.CSTTransformer):
    """`self.x` → `self__x`, so attributes are names of the class scope."""

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if isinstance(updated.value, cst.Name) and updated.value.value == "self":
            return cst.Name(PREFIX + updated.attr.value)
        return updated


class _NamesToSelf(cst.CSTTransformer):
    """`self__x` back to `self.x`, or to the local `x` inside a step function."""

    def __init__(self, local: dict[str, str]) -> None:
        super().__init__()
        self.local = local

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if not updated.value.startswith(PREFIX):
            return updated
        attr = updated.value[len(PREFIX):]
        if attr in self.local:
            return cst.Name(self.local[attr])
        return cst.Attribute(value=cst.Name("self"), attr=cst.Name(attr))

    def leave_Param(self, original: cst.Param, updated: cst.Param) -> cst.Param:
        name = updated.name.value
        if name.startswith(PREFIX):
            attr = name[len(PREFIX):]
            return updated.with_changes(name=cst.Name(self.local.get(attr, attr)))
        return updated


@dataclass
class GraphClass:
    """What module code may still read from instances of a converted class."""

    name: str
    variables: list[str] = field(default_factory=list)  # in the order they were made
    # run sites outside the class (`sess.run(gan.fake, {gan.z: noise})`), by `external_key`:
    # the step function attribute, the placeholder attributes it takes, in order, the
    # structure it returns, and the positions of the fetch it returns (None: all of them)
    runs: dict[str, ExternalStep] = field(default_factory=dict)
    savers: set[str] = field(default_factory=set)  # attributes holding a Saver (now a Checkpoint)
    summaries: bool = False  # makes summary ops (which a `merge_all()` outside it fetches)


def _attributes(fetch: str, prefix: str) -> str:
    """A fetch of attributes (`loss`, `[loss, train_op]`) spelled with `self.` or `self__`."""
    return re.sub(r"\w+", lambda m: prefix + m.group(), fetch)


@dataclass(frozen=True)
class ExternalRun:
    """A run site outside the class: the fetched attributes (`loss`, `[train, loss]`), the
    attributes it feeds, and the positions its result unpacks into `_`."""

    fetch: str
    fed: tuple[str, ...]
    discarded: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        dropped = f" _{','.join(map(str, self.discarded))}" if self.discarded else ""
        return f"{self.fetch} <- {', '.join(sorted(self.fed))}{dropped}"


@dataclass(frozen=True)
class ExternalStep:
    """The step function a converted class made for an `ExternalRun`."""

    run: ExternalRun
    name: str
    params: list[str]
    structure: str
    kept: list[int] | None = None


#: The attribute an instance's merged summaries are fetched as, in its class's step.
SUMMARIES = "tfmigrate__summaries"

#: The method holding the class's run sites found outside it, while the class is converted.
EXTERNAL = "tfmigrate__external_runs"


def is_graph_class(cls: cst.ClassDef, uses_tf1_graph) -> bool:
    """A class whose `__init__` builds TF1 graph nodes (placeholders, sessions)."""
    init = _method(cls, "__init__")
    return init is not None and uses_tf1_graph(init)


def _method(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    for stmt in cls.body.body:  # type: ignore[union-attr]
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def convert_class(
    cls: cst.ClassDef, make_move, lines: dict[int, int], external: list[ExternalRun] = (),
) -> tuple[list[cst.BaseStatement], GraphClass]:
    """The class with its graph moved into step functions built in `__init__`, after the
    Layer/Model classes its variable-creating static methods became. `external` lists its
    instances' run sites outside the class: each gets a step function too (returning only
    what the site keeps, when it unpacks a train op's None into `_`)."""
    init = _method(cls, "__init__")
    assert init is not None
    move = make_move()
    cls, listed = scoped_lists(cls, init, move.aliases, lines)
    init = _method(cls, "__init__")
    assert init is not None
    move.scope_arguments = set(scope_arguments(cls, init))
    for line in listed:
        move.findings.append(Finding(SCOPE_RULE.id, line, 0, "variables listed by a constructor-named scope → the instance's variables", "fixed"))
    members = list(cls.body.body)  # type: ignore[union-attr]
    if external:
        runs = "".join(f"    {_external_statement(run)}\n" for run in external)
        if any(SUMMARIES in run.fetch for run in external):  # what `merge_all()` gave the runs
            runs = f"    self.{SUMMARIES} = tf.summary.merge_all()\n{runs}"
        members.append(cst.parse_statement(f"def {EXTERNAL}(self):\n{runs}"))
    init, classes, converted = _shared_models(cls, init, move, lines)
    init, block_classes = _scope_blocks(cls, init, move, lines)
    classes += block_classes
    members = [init if isinstance(m, cst.FunctionDef) and m.name.value == "__init__" else m
               for m in members if m not in converted]
    methods = [m for m in members if isinstance(m, cst.FunctionDef) and m is not init]
    others = [m for m in members if not isinstance(m, cst.FunctionDef)]
    if any(not is_docstring(o) for o in others):
        raise Unsupported(SESSION_RULE.id, lines.get(id(cls), 0), f"class {cls.name.value} has class-level statements")
    renamed_init = transform(init, _SelfToNames())
    assert isinstance(renamed_init, cst.FunctionDef)
    renamed_methods = [transform(m, _SelfToNames()) for m in methods]
    # Findings on the renamed statements point at the original lines.
    for old, new in [*zip(init.body.body, renamed_init.body.body), *zip(methods, renamed_methods)]:  # type: ignore[union-attr]
        copy_lines(old, new, lines)
    body = list(renamed_init.body.body) + renamed_methods  # type: ignore[union-attr,operator]
    # Names the rewrite makes up (`self__optimizer` for a Keras optimizer) must not take an
    # attribute's.
    move.used_names.update(n.value for stmt in body for n in names_read(stmt))
    move.used_names.update(PREFIX + m.name.value for m in methods)  # `self.train_step` stays a method
    reported = len(move.findings)
    out = move._process(body, top=True)
    # The run sites made up for uses outside the class have no line: the module reports them.
    move.findings[reported:] = [f for f in move.findings[reported:] if f.line]
    method_names = {m.name.value for m in methods}
    step_names = {f.name for f in move.functions.values()}
    local = {n for node in move.scope.nodes if node.kind in INSIDE or node.kind == "placeholder"
             for n in node.names}
    local = {n[len(PREFIX):] for n in local if n.startswith(PREFIX)}
    new_init: list[cst.BaseStatement] = []
    new_methods: dict[str, cst.BaseStatement] = {}
    plain = {n for stmt in out for n in bound_names(stmt) if not n.startswith(PREFIX)}
    for stmt in out:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == EXTERNAL:
            continue
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in method_names:
            new_methods[stmt.name.value] = _to_self(stmt, {}, lines)  # type: ignore[assignment]
        elif isinstance(stmt, cst.FunctionDef) and stmt.name.value in step_names:
            attr = stmt.name.value.removeprefix(PREFIX)
            # The step's own name must not shadow a local of __init__ (a layer named as the
            # fetch: `out = Linear(...)` and the step `out` calling it would call itself).
            function = attr
            while function in plain or function in {n.value for n in names_read(stmt.body)}:
                function += "_step"
            step = _to_self(stmt.with_changes(name=cst.Name(function)), _local_names(stmt, local | {attr}), lines)
            new_init.append(step)  # type: ignore[arg-type]
            new_init.append(cst.parse_statement(f"self.{attr} = {function}\n"))
        else:
            new_init.append(_to_self(stmt, {}, lines))  # type: ignore[arg-type]
    if not new_init:
        new_init = [cst.parse_statement("pass\n")]
    if move.init_comments:
        new_init[0] = new_init[0].with_changes(leading_lines=[*move.init_comments, *new_init[0].leading_lines])
    info = GraphClass(cls.name.value, list(dict.fromkeys(
        n[len(PREFIX):] for node in move.scope.nodes if node.kind == "variable"
        for n in node.names if n.startswith(PREFIX)
    )))
    info.savers = {n[len(PREFIX):] for node in move.scope.nodes if node.kind == "saver"
                   for n in node.names if n.startswith(PREFIX)}
    info.summaries = any(node.kind == "summary" and not node.info["merge"] for node in move.scope.nodes)
    for run in external:
        kept = _kept(move, run)
        fetched = _attributes(run.fetch, PREFIX)
        returned = fetched if kept is None else _returned(fetched, kept)
        step = move.functions.get(f"{fetched} -> {returned}")
        if step is None or step.returns_structure not in ("single", "list", "dict", "nested", "nested_with_none", "none"):
            continue  # a variable read, or a fetch the module's run site reports on
        params = [p.name.removeprefix(PREFIX) for p in step.params]
        info.runs[run.key] = ExternalStep(run, step.name.removeprefix(PREFIX), params, step.returns_structure, kept)
    rebuilt: list[cst.BaseStatement] = []
    for member in members:
        if member is init:
            rebuilt.append(init.with_changes(body=init.body.with_changes(body=new_init)))
        elif isinstance(member, cst.FunctionDef) and member.name.value == EXTERNAL:
            continue
        elif isinstance(member, cst.FunctionDef):
            rebuilt.append(new_methods.get(member.name.value, member))  # type: ignore[arg-type]
        else:
            rebuilt.append(member)
    blank = [cst.EmptyLine(), cst.EmptyLine()]
    placed = [c.with_changes(leading_lines=cls.leading_lines if i == 0 else blank) for i, c in enumerate(classes)]
    converted_cls = cls.with_changes(body=cls.body.with_changes(body=rebuilt))
    if placed:
        converted_cls = converted_cls.with_changes(leading_lines=blank)
    return [*placed, converted_cls], info


def _external_statement(run: ExternalRun) -> str:
    """The made-up run of an outside site inside the class, unpacked as the site unpacks it."""
    feed = ", ".join(f"self.{f}: None" for f in run.fed)
    call = f"tfmigrate__session.run({_attributes(run.fetch, 'self.')}, {{{feed}}})"
    if not run.discarded:
        return call
    count = len(re.findall(r"\w+", run.fetch))
    targets = ", ".join("_" if i in run.discarded else f"tfmigrate__kept{i}" for i in range(count))
    return f"{targets} = {call}"


def _kept(move, run: ExternalRun) -> list[int] | None:
    """The positions a step for an outside site returns when every op it fetches (a train op,
    a group: TF1 gave None) is unpacked into `_` there; None when it returns all."""
    attrs = re.findall(r"\w+", run.fetch)
    if not run.discarded or not run.fetch.startswith(("[", "(")):
        return None
    ops = {i for i, a in enumerate(attrs) if (n := move.scope.lookup(PREFIX + a)) is not None and valueless(n)}
    if not ops or not ops <= set(run.discarded) or len(ops) == len(attrs):
        return None
    return [i for i in range(len(attrs)) if i not in ops]


def _returned(fetched: str, kept: list[int]) -> str:
    """The source of what a step returns for the kept positions of a fetched list."""
    names = [n for i, n in enumerate(re.findall(r"\w+", fetched)) if i in kept]
    return names[0] if len(names) == 1 else f"[{', '.join(names)}]"


def _shared_models(
    cls: cst.ClassDef, init: cst.FunctionDef, move, lines: dict[int, int]
) -> tuple[cst.FunctionDef, list[cst.BaseStatement], list[cst.FunctionDef]]:
    """Static methods that create variables and are called only in `__init__` (`self.fake =
    self.generator(self.z, hidden)`, again with `reuse=True`): each becomes a Layer/Model class
    whose one instance `__init__` makes before the first call, configured with the arguments
    the calls pass, and named by the variable_scope its variables were under.

    Returns `__init__` with the instances made, the new classes, and the methods they replace."""
    models = move.models
    members = [m for m in cls.body.body if isinstance(m, cst.FunctionDef)]  # type: ignore[union-attr]
    body = list(init.body.body)  # type: ignore[union-attr]
    params = {p.name.value for p in init.params.params}
    rebound = {n for s in body for n in bound_names(s)}
    classes: list[cst.BaseStatement] = []
    converted: list[cst.FunctionDef] = []
    for method in members:
        if not any(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
                   for d in method.decorators):
            continue
        name = method.name.value
        sites = [c for s in body for c in _self_calls(s, name)]
        others = [c for m in members if m is not init for c in _self_calls(m, name)]
        if not sites or others:
            continue
        scopes = call_scopes(cst.Module(body=[s.visit(_SelfToNames()) for s in body]), models.aliases)
        caller = scopes.get(PREFIX + name, set())
        scope = next(iter(caller)) if len(caller) == 1 else None
        plain = method.with_changes(decorators=[])
        record_line(lines, plain, lines.get(id(method), 0))
        shared = models.convert_shared(plain, PREFIX + name, scope if scope and scope.isidentifier() else None)
        if shared is None:
            continue
        names = [p.name.value for p in method.params.params]
        made = {shared.constructor(c, names) for c in sites}
        if len(made) != 1 or None in made:
            raise Unsupported(SESSION_RULE.id, lines.get(id(method), 0),
                              f"calls of {name} configure its layers differently")
        reads = {n.value for c in sites for a in c.args for n in names_read(a.value)}
        config = {n for n in reads if n in params} & rebound
        if config:
            raise Unsupported(SESSION_RULE.id, lines.get(id(method), 0),
                              f"{name} is configured from {', '.join(sorted(config))}, computed in __init__")
        first = next(i for i, s in enumerate(body) if _self_calls(s, name))
        made_line = cst.parse_statement(f"self.{name} = {made.pop()}\n")
        record_line(lines, made_line, lines.get(id(body[first]), 0))
        body.insert(first, made_line)
        classes.extend(shared.classes)
        converted.append(method)
    return init.with_changes(body=init.body.with_changes(body=body)), classes, converted


def _scope_blocks(
    cls: cst.ClassDef, init: cst.FunctionDef, move, lines: dict[int, int]
) -> tuple[cst.FunctionDef, list[cst.BaseStatement]]:
    """`with tf.variable_scope("encoder"):` blocks of `__init__` that call layer functions
    (`self.z_mean = dense(h, n_z, "mean")`): each becomes a Model named by the scope, made in
    `__init__` with the `__init__` parameters its layers are configured from, and one call of it
    that takes the tensors the block read and gives back the attributes it set."""
    models = move.models
    params = [p.name.value for p in init.params.params[1:]]
    body = list(init.body.body)  # type: ignore[union-attr]
    classes: list[cst.BaseStatement] = []
    attributes = _self_attributes(cls)
    out: list[cst.BaseStatement] = []
    for index, stmt in enumerate(body):
        scope = _layer_block_scope(stmt, models)
        if scope is None or scope in attributes or not scope.isidentifier():
            out.append(stmt)
            continue
        inner = list(stmt.body.body)  # type: ignore[union-attr]
        set_attrs = [a for s in inner for a in _set_self_attributes(s)]
        read_attrs = [a for s in inner for a in _read_self_attributes(s) if a not in set_attrs]
        local = {n for s in inner for n in bound_names(s)}
        free = {n.value for s in inner for n in names_read(s)} - local
        before = {n for s in body[:index] for n in bound_names(s)}
        inputs = list(dict.fromkeys(read_attrs)) + sorted((free & before) - set(params))
        config = [p for p in params if p in free and p not in before]
        later = [n for n in sorted(local) if _read_before_bound(n, body[index + 1:])]
        outputs = list(dict.fromkeys(set_attrs)) + later
        if not outputs or not inputs or set(inputs) & set(config):
            out.append(stmt)
            continue
        to_local = {f"self.{a}": a for a in dict.fromkeys(set_attrs + read_attrs)}
        renamed = [s.visit(_AttributesToNames(to_local)) for s in inner]
        returned = ", ".join(outputs)
        source = cst.Module(body=[]).code_for_node(stmt.with_changes(
            body=stmt.body.with_changes(body=[*renamed, cst.parse_statement(f"return {returned}\n")]),
            leading_lines=[]))
        func = cst.parse_statement(
            f"def {scope}({', '.join(inputs + config)}):\n" + "".join(f"    {line}\n" for line in source.splitlines()))
        record_line(lines, func, lines.get(id(stmt), 0))
        shared = models.convert_shared(func, PREFIX + scope, None)
        if shared is None or shared.config != config:
            out.append(stmt)
            continue
        targets = ", ".join(f"self.{o}" if o in set_attrs else o for o in outputs)
        call_args = ", ".join(f"self.{i}" if i in read_attrs else i for i in inputs)
        made = cst.parse_statement(f"self.{scope} = {shared.constructor_source(config)}\n")
        called = cst.parse_statement(f"{targets} = self.{scope}({call_args})\n")
        for new in (made, called):
            record_line(lines, new, lines.get(id(stmt), 0))
        out.extend([made.with_changes(leading_lines=stmt.leading_lines), called])
        classes.extend(shared.classes)
    return init.with_changes(body=init.body.with_changes(body=out)), classes


def _read_before_bound(name: str, stmts: list[cst.BaseStatement]) -> bool:
    """Is `name` read by these statements, in order, before they bind it again?"""
    for stmt in stmts:
        if isinstance(stmt, cst.SimpleStatementLine):
            small = stmt.body[0] if len(stmt.body) == 1 else stmt
            read = names_read(small.value) if isinstance(small, cst.Assign) else names_read(stmt)
            if name in {n.value for n in read}:
                return True
            if name in bound_names(stmt):
                return False
            continue
        if isinstance(stmt, cst.With) and not any(name in bound_names(i) for i in stmt.items):
            if name in {n.value for i in stmt.items for n in names_read(i)}:
                return True
            inner = _read_before_bound(name, list(stmt.body.body))  # type: ignore[union-attr]
            if inner or name in bound_names(stmt):
                return inner
            continue
        return name in {n.value for n in names_read(stmt)} or name not in bound_names(stmt)
    return False


def _layer_block_scope(stmt: cst.BaseStatement, models) -> str | None:
    """The literal name of a `with tf.variable_scope(NAME):` whose body calls layer functions."""
    if not (isinstance(stmt, cst.With) and len(stmt.items) == 1 and isinstance(stmt.items[0].item, cst.Call)
            and stmt.items[0].asname is None):
        return None
    call = stmt.items[0].item
    if models.aliases.resolve(call.func) != "variable_scope" or len(call.args) != 1:
        return None
    name = call.args[0].value
    if not isinstance(name, cst.SimpleString):
        return None
    calls_layers = any(isinstance(c.func, cst.Name) and c.func.value in models.scope_params
                       for c in calls_in(stmt.body))
    creates = any(models.aliases.resolve(c.func) in ("get_variable", "Variable", "placeholder")
                  for c in calls_in(stmt.body))
    return str(name.evaluated_value) if calls_layers and not creates else None


def _self_attributes(cls: cst.ClassDef) -> set[str]:
    """Every `self.<name>` the class spells, and its methods' names."""
    found = {m.name.value for m in cls.body.body if isinstance(m, cst.FunctionDef)}  # type: ignore[union-attr]
    found |= {a for m in cls.body.body for a in _read_self_attributes(m)}  # type: ignore[union-attr]
    return found


def _read_self_attributes(node: cst.CSTNode) -> list[str]:
    return [
        attr.attr.value for attr in walk(node)
        if isinstance(attr, cst.Attribute) and isinstance(attr.value, cst.Name) and attr.value.value == "self"
    ]


def _set_self_attributes(stmt: cst.BaseStatement) -> list[str]:
    """The `self.<name>` an assignment statement sets."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign)):
        return []
    found: list[str] = []
    for target in stmt.body[0].targets:
        elements = target.target.elements if isinstance(target.target, (cst.Tuple, cst.List)) else [target.target]
        for e in elements:
            value = e.value if isinstance(e, cst.BaseElement) else e
            if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
                found.append(value.attr.value)
    return found


class _AttributesToNames(cst.CSTTransformer):
    """`self.x` → `x` for the attributes a scope block reads and sets."""

    def __init__(self, mapping: dict[str, str]) -> None:
        super().__init__()
        self.mapping = mapping

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if isinstance(updated.value, cst.Name) and updated.value.value == "self":
            name = self.mapping.get(f"self.{updated.attr.value}")
            if name is not None:
                return cst.Name(name)
        return updated


def _self_calls(node: cst.CSTNode, name: str) -> list[cst.Call]:
    """Calls of `self.<name>(...)` in a subtree."""
    return [
        call for call in walk(node)
        if isinstance(call, cst.Call) and isinstance(func := call.func, cst.Attribute)
        and isinstance(func.value, cst.Name) and func.value.value == "self" and func.attr.value == name
    ]


def _local_names(step: cst.FunctionDef, local: set[str]) -> dict[str, str]:
    """Local name of each attribute inside a step function.

    `self.x` becomes the local `x` unless the step already reads a plain `x` (an `__init__`
    parameter, a global, another local); then it takes `x_` (or `x__`, ...) so neither shadows
    the other.
    """
    def inside(node: cst.CSTNode) -> list[cst.CSTNode]:
        # an attribute's name and an argument's keyword are no reads
        return [node.value] if isinstance(node, (cst.Attribute, cst.Arg)) else children(node)

    taken = {
        node.value for node in walk(step.body, inside)
        if isinstance(node, cst.Name) and not node.value.startswith(PREFIX)
    }
    names: dict[str, str] = {}
    for attr in sorted(local):
        name = attr
        while name in taken or name in names.values():
            name += "_"
        names[attr] = name
    return names


def _to_self(stmt: cst.BaseStatement, local: dict[str, str], lines: dict[int, int]) -> cst.CSTNode:
    new = transform(stmt, _NamesToSelf(local))
    copy_lines(stmt, new, lines)
    return new


