"""``--max-steps N`` ends training, not the program: the program's loops are cut at the budget.

Stopping a program at its N+1th optimizer step would hide everything after training: the
evaluation, the final prints, the checkpoint written at the end, where a wrong rewrite shows as
often as in training. So, when a step budget is set, the runner compiles the user's program from
an instrumented syntax tree (not from edited text: the line numbers in the trace and in tracebacks
stay the file's own). Before each ``for`` and ``while`` statement a hidden local records the
optimizer steps taken so far, and the loop body starts with
``if <the budget is spent and this loop has seen a step since it started>: break``. Once N steps
are taken, every loop that ran one exits at its next iteration, at any depth and in any function
of the program file, the same on both sides of a ``verify``; an evaluation loop, which takes no
step, runs to its end, and so does the rest of the program. A cut loop skips its ``else:``
clause, as any ``break`` does.

Not instrumented, and cut the old way instead (``trace.StopProgram`` ends the program, and
the trace says where, so the verdict can name what did not run):
loops in comprehensions (expressions, not statements), in generators and coroutines (steps
taken while one is paused are not its own), directly in class bodies, and in modules the
program imports. ``trace.Recorder`` decides when steps past the budget come from such a loop.
"""

from __future__ import annotations

import ast
import builtins
import runpy
import sys
import types

from runtime import trace

#: The global through which instrumented loops reach the recorder.
HOOK = "__tfmigrate_loops__"


class _CutLoops(ast.NodeTransformer):
    """Adds the budget check to every loop statement that runs in a plain function or module."""

    def __init__(self) -> None:
        self.cuttable = [True]  # per enclosing scope: may its own loops be cut?
        self.depth = [0]  # per enclosing scope: loops around the node being visited

    def _scope(self, node: ast.AST, cuttable: bool) -> ast.AST:
        self.cuttable.append(cuttable)
        self.depth.append(0)
        try:
            return self.generic_visit(node)
        finally:
            self.cuttable.pop()
            self.depth.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._scope(node, not _pauses(node))

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._scope(node, False)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        return self._scope(node, False)

    def _loop(self, node: ast.For | ast.While) -> ast.AST | list[ast.AST]:
        depth = self.depth[-1]
        self.depth[-1] += 1
        self.generic_visit(node)
        self.depth[-1] -= 1
        if not self.cuttable[-1]:
            return node
        # Named by nesting depth, not by count: a loop's name depends only on the loops around
        # it, so two programs of the same shape hold the same hidden names (``locals()``).
        start = f"__tfmigrate_loop_{depth}__"
        record = ast.Assign([ast.Name(start, ast.Store())], _hook_call("loop_started"))
        check = ast.If(
            _hook_call("loop_cut", ast.Name(start, ast.Load()), ast.Constant(node.lineno)),
            [ast.Break()],
            [],
        )
        for new in (record, check):
            _locate(new, node)
        node.body.insert(0, check)
        return [record, node]

    visit_For = _loop
    visit_While = _loop


def _hook_call(method: str, *args: ast.expr) -> ast.Call:
    return ast.Call(
        ast.Attribute(ast.Name(HOOK, ast.Load()), method, ast.Load()), list(args), []
    )


def _locate(new: ast.AST, where: ast.AST) -> None:
    """Place every node of ``new`` on the loop's first line: tracebacks never name a line
    the file does not have, and a line coverage report counts no line the file lacks."""
    for node in ast.walk(new):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = where.lineno
            node.col_offset = node.end_col_offset = where.col_offset


def _pauses(function: ast.FunctionDef) -> bool:
    """Is it a generator: can its loops pause while others take steps?"""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def instrument(tree: ast.Module) -> ast.Module:
    """``tree`` with every cuttable loop checking the step budget (changed in place)."""
    return _CutLoops().visit(tree)


def compile_program(path: str) -> types.CodeType:
    """The program at ``path`` compiled with its loops cut at the step budget."""
    with open(path, "rb") as fh:  # bytes: the file's own coding cookie or BOM decides
        source = fh.read()
    tree = instrument(ast.parse(source, path))
    return compile(tree, path, "exec", dont_inherit=True)


def run_path(path: str) -> None:
    """Run ``path`` as ``__main__``, as ``runpy.run_path`` does; with a step budget set,
    compiled with its loops cut at the budget."""
    if trace.recorder.max_steps is None:
        runpy.run_path(path, run_name="__main__")
        return
    code = compile_program(path)
    module = types.ModuleType("__main__")
    module.__dict__.update(
        __file__=path, __cached__=None, __loader__=None, __package__=None, __spec__=None,
        __builtins__=builtins, **{HOOK: trace.recorder},
    )  # fmt: skip
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module  # pickle and ``from __main__ import`` find the program
    try:
        exec(code, module.__dict__)  # noqa: S102 - the user's program, as runpy would run it
    finally:
        if saved is None:
            sys.modules.pop("__main__", None)
        else:
            sys.modules["__main__"] = saved
