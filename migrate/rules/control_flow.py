"""TF135: ``tf.cond`` / ``tf.while_loop`` inside ``tf.function`` → Python ``if`` / ``while``.

AutoGraph turns a Python ``if`` or ``while`` whose test is a tensor back into the same graph
conditional or loop, so inside a ``tf.function`` the functional forms are only noise. Only code
AutoGraph converts is changed: bodies of ``@tf.function`` functions and the module functions
called from nowhere else. A Keras layer's ``call`` and anything a Keras object calls back (a
learning-rate callable) are not converted by Keras 3, so a tensor ``if`` there would fail.
"""

from __future__ import annotations

import libcst as cst

from migrate.codegen import ReplaceNames, code
from migrate.imports import Aliases
from migrate.report import Finding
from migrate.walk import children, walk

from . import Rule

RULE = Rule(
    id="TF135",
    name="python-control-flow",
    summary="Inside tf.function, write tf.cond / tf.while_loop as Python if / while.",
    doc=(
        "`x = tf.cond(pred, lambda: a, lambda: b)` becomes `if pred: x = a` / `else: x = b`, and "
        "`i, x = tf.while_loop(cond, body, [i0, x0])` becomes `i, x = i0, x0` then "
        "`while cond(i, x): i, x = body(i, x)`, wherever AutoGraph converts the code: in "
        "`@tf.function` bodies and in module functions only they call. AutoGraph builds the same "
        "graph conditional or loop from them. Calls with `shape_invariants`, "
        "`maximum_iterations` or `back_prop`, branches that take arguments, and loops whose "
        "results are not unpacked into distinct names are left as they are."
    ),
    kind="auto",
)

_COND_KEYWORDS = {"pred", "true_fn", "false_fn", "name"}
_LOOP_KEYWORDS = {"cond", "body", "loop_vars", "name", "parallel_iterations", "swap_memory"}


def _arguments(call: cst.Call, order: tuple[str, ...], allowed: set[str]) -> dict[str, cst.BaseExpression] | None:
    """The call's arguments by parameter name, or None if it passes anything else."""
    out: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        name = arg.keyword.value if arg.keyword else (order[i] if i < len(order) else None)
        if name is None or name not in allowed:
            return None
        out[name] = arg.value
    return out


def _zero_arg_result(fn: cst.BaseExpression) -> str | None:
    """What calling a branch yields, as source: a lambda's body, or ``fn()``."""
    if isinstance(fn, cst.Lambda):
        p = fn.params
        takes = p.params or p.posonly_params or p.kwonly_params or p.star_kwarg or isinstance(p.star_arg, cst.Param)
        return None if takes else code(fn.body)
    return f"{code(fn)}()" if isinstance(fn, (cst.Name, cst.Attribute)) else None


def _applied(fn: cst.BaseExpression, names: list[str]) -> str | None:
    """``fn(*names)`` as source; a lambda's body with its parameters replaced by ``names``."""
    if isinstance(fn, (cst.Name, cst.Attribute)):
        return f"{code(fn)}({', '.join(names)})"
    if not isinstance(fn, cst.Lambda):
        return None
    params = fn.params
    if params.posonly_params or params.kwonly_params or params.star_kwarg or (
            isinstance(params.star_arg, cst.Param)) or len(params.params) != len(names):
        return None
    if any(p.default is not None for p in params.params):
        return None
    own = {p.name.value for p in params.params}
    if any(isinstance(n, cst.Name) and n.value in names and n.value not in own for n in walk(fn.body)):
        return None  # the body reads an outer name a loop variable would shadow
    mapping = {p.name.value: n for p, n in zip(params.params, names)}
    return code(fn.body.visit(ReplaceNames(mapping)))  # type: ignore[arg-type]


def is_tf_function(aliases: Aliases, node: cst.FunctionDef) -> bool:
    """Decorated with ``tf.function`` (bare or called with options)."""
    return any(aliases.resolve(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) == "function"
               for d in node.decorators)


def _target_names(target: cst.BaseAssignTargetExpression) -> list[str] | None:
    if isinstance(target, (cst.Tuple, cst.List)) and all(
            isinstance(e, cst.Element) and isinstance(e.value, cst.Name) for e in target.elements):
        names = [e.value.value for e in target.elements]  # type: ignore[union-attr]
        return names if len(set(names)) == len(names) else None
    return None


class PythonControlFlow(cst.CSTTransformer):
    """Rewrites single-assignment ``tf.cond`` / ``tf.while_loop`` statements in converted code."""

    def __init__(self, aliases, functions: set[str], taken: set[str], lines: dict[int, int],
                 findings: list[Finding]) -> None:
        super().__init__()
        self.taken = taken  # every name the module uses: a new loop variable takes none of them
        self.aliases = aliases
        self.functions = functions  # module functions only tf.function bodies call
        self.lines = lines
        self.findings = findings
        self.converted: list[bool] = [False]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        top = len(self.converted) == 1
        self.converted.append(is_tf_function(self.aliases, node) or (top and node.name.value in self.functions))
        return True

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self.converted.pop()
        return updated_node

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.converted.append(False)
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self.converted.pop()
        return updated_node

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if not self.converted[-1] or len(updated_node.body) != 1:
            return updated_node
        stmt = updated_node.body[0]
        if not (isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, cst.Call)):
            return updated_node
        path = self.aliases.resolve(stmt.value.func)
        make = {"cond": self._if, "while_loop": self._while}.get(path or "")
        source = make(stmt.targets[0].target, stmt.value) if make else None
        if source is None:
            return updated_node
        statements = list(cst.parse_module(source).body)
        statements[0] = statements[0].with_changes(leading_lines=updated_node.leading_lines)
        line = self._line(original_node)
        self.findings.append(Finding(RULE.id, line, 0, f"tf.{path} → Python {'if' if path == 'cond' else 'while'} "
                                     "inside tf.function (AutoGraph)", "fixed"))
        return cst.FlattenSentinel(statements)

    def _named(self, names: list[str], *fns: cst.BaseExpression) -> list[str]:
        """Loop variables for ``_`` targets: the lambda's parameter at that place, or a fresh name."""
        params = [[p.name.value for p in fn.params.params] for fn in fns if isinstance(fn, cst.Lambda)]
        out = []
        for i, name in enumerate(names):
            if name == "_":
                known = [p[i] for p in params if i < len(p) and p[i] != "_"]
                name = next((n for n in known if n not in self.taken), None) or self._fresh("loop_var")
                self.taken.add(name)
            out.append(name)
        return out

    def _fresh(self, stem: str) -> str:
        n = 1
        while f"{stem}_{n}" in self.taken:
            n += 1
        return f"{stem}_{n}"

    def _line(self, node: cst.CSTNode) -> int:
        """The first source line known in ``node``'s subtree (moved statements keep their parts')."""
        queue = [node]
        for current in queue:
            line = self.lines.get(id(current))
            if line:
                return line
            queue.extend(current.children)
        return 0

    def _if(self, target: cst.BaseAssignTargetExpression, call: cst.Call) -> str | None:
        args = _arguments(call, ("pred", "true_fn", "false_fn"), _COND_KEYWORDS)
        if args is None or not {"pred", "true_fn", "false_fn"} <= args.keys():
            return None
        then, other = _zero_arg_result(args["true_fn"]), _zero_arg_result(args["false_fn"])
        if then is None or other is None:
            return None
        lhs, pred = code(target), code(args["pred"])
        if other == lhs:  # the false branch keeps the value: no else
            return f"if {pred}:\n    {lhs} = {then}\n"
        return f"if {pred}:\n    {lhs} = {then}\nelse:\n    {lhs} = {other}\n"

    def _while(self, target: cst.BaseAssignTargetExpression, call: cst.Call) -> str | None:
        args = _arguments(call, ("cond", "body", "loop_vars"), _LOOP_KEYWORDS)
        names = _target_names(target)
        if args is None or names is None or not {"cond", "body", "loop_vars"} <= args.keys():
            return None
        start = args["loop_vars"]
        if not isinstance(start, (cst.List, cst.Tuple)) or len(start.elements) != len(names) or any(
                not isinstance(e, cst.Element) for e in start.elements):
            return None
        names = self._named(names, args["cond"], args["body"])
        test, step = _applied(args["cond"], names), _applied(args["body"], names)
        if test is None or step is None:
            return None
        lhs = ", ".join(names)
        first = ", ".join(code(e.value) for e in start.elements)
        return f"{lhs} = {first}\nwhile {test}:\n    {lhs} = {step}\n"


def called_only_from_functions(module: cst.Module, aliases) -> tuple[set[str], set[str]]:
    """Module functions every reference to which is a call inside a ``@tf.function`` body; and
    every name the module uses."""
    inside, outside = _references(module, aliases)
    defined = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef)}
    return {n for n in defined if inside.get(n) and not outside.get(n)}, inside.keys() | outside.keys()


def _references(module: cst.Module, aliases) -> tuple[dict[str, int], dict[str, int]]:
    """How often each name is referenced as a call inside a ``@tf.function`` body, and otherwise."""
    inside: dict[str, int] = {}
    outside: dict[str, int] = {}
    called: set[int] = set()
    definitions: set[int] = set()
    lambda_params: list[set[str]] = []

    def visit(node: cst.CSTNode, in_function: bool) -> None:
        if isinstance(node, cst.Name):
            if id(node) in definitions or any(node.value in p for p in lambda_params):
                return
            counts = inside if in_function and id(node) in called else outside
            counts[node.value] = counts.get(node.value, 0) + 1
            return
        if isinstance(node, cst.FunctionDef):
            definitions.add(id(node.name))  # a def's own name is no reference
            in_function = is_tf_function(aliases, node) or in_function
        elif isinstance(node, cst.Lambda):
            in_function = False
            # A lambda's parameters live in the lambda only: a new loop variable may take their names.
            lambda_params.append({p.name.value for p in node.params.params})
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            called.add(id(node.func))
        for child in children(node):
            visit(child, in_function)
        if isinstance(node, cst.Lambda):
            lambda_params.pop()

    visit(module, False)
    return inside, outside
