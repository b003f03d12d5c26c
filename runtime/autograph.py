"""AutoGraph: Python ``if`` and ``while`` over tensors inside ``tf.function`` become graph control flow.

As TF's AutoGraph does, a traced function's source is rewritten once per code object: each ``if``
becomes a call to `if_stmt` with its branches as nested functions over the names they assign, each
``while`` a call to `while_stmt`, and each call goes through `call`, which converts the user
functions it reaches (not TF's, Keras's or the standard library's: Keras 3 does not convert a
layer's ``call``). A Python test still runs plain Python; only a symbolic tensor test builds a
graph conditional. A function whose source cannot be read runs unconverted, as in TF.
"""

from __future__ import annotations

import ast
import inspect
import sysconfig
import textwrap
import types
import weakref
from pathlib import Path
from typing import Any

from runtime import nest
from runtime.errors import Unsupported
from runtime.tensor import SymbolicTensor

_ENGINE = str(Path(__file__).resolve().parent)
_LIBRARIES = tuple(str(Path(p).resolve()) for p in {
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
_AG = "__ag__"
_CONVERTED: dict[types.CodeType, types.CodeType | None] = {}


class Undefined:
    """A name a branch or loop did not bind; using it fails as an unbound local would."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Undefined({self.name!r})"

    def __getattr__(self, attr: str) -> Any:
        raise UnboundLocalError(f"local variable '{self.name}' referenced before assignment")


def ld(read: Any, name: str) -> Any:
    """The value of a local that may not be bound yet."""
    try:
        return read()
    except NameError:
        return Undefined(name)


# --- conversion --------------------------------------------------------------------------------


def convert(fn: Any) -> Any:
    """``fn`` with AutoGraph applied, or ``fn`` itself when it is not user code or has no source."""
    if isinstance(fn, types.MethodType):
        converted = convert(fn.__func__)
        return fn if converted is fn.__func__ else types.MethodType(converted, fn.__self__)
    if not isinstance(fn, types.FunctionType) or _AG in fn.__code__.co_freevars:
        return fn  # not a function, or one defined inside converted code (converted with it)
    done = _FUNCTIONS.get(fn)
    if done is not None:
        return done
    code = _CONVERTED.get(fn.__code__, _MISSING)
    if code is _MISSING:
        code = _CONVERTED[fn.__code__] = _convert_code(fn) if _is_user_code(fn.__code__) else None
    if code is None:
        _FUNCTIONS[fn] = fn
        return fn
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells[_AG] = types.CellType(_MODULE)
    closure = tuple(cells[name] for name in code.co_freevars)
    out = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    out.__kwdefaults__ = fn.__kwdefaults__
    out.__dict__.update(fn.__dict__)
    _FUNCTIONS[fn] = _FUNCTIONS[out] = out
    return out


_MISSING: Any = object()
#: Converted functions by original; a converted function maps to itself.
_FUNCTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _is_user_code(code: types.CodeType) -> bool:
    path = code.co_filename
    if path.startswith("<") or code.co_name == "<lambda>":
        return False
    resolved = str(Path(path).resolve())
    return not resolved.startswith(_ENGINE) and not resolved.startswith(_LIBRARIES)


def _convert_code(fn: types.FunctionType) -> types.CodeType | None:
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != fn.__name__:
        return None
    if isinstance(node, ast.AsyncFunctionDef) or any(
            isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(node.body)):
        return None
    node.decorator_list = []
    params = node.args.posonlyargs + node.args.args
    _Converter(params[0].arg if params and "__class__" in fn.__code__.co_freevars else None).visit(node)
    freevars = [*fn.__code__.co_freevars, _AG]
    factory = ast.FunctionDef(
        name="__ag_factory", args=ast.arguments(posonlyargs=[], args=[ast.arg(v) for v in freevars],
                                                kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[node, ast.Return(ast.Name(node.name, ast.Load()))], decorator_list=[], returns=None,
        type_params=[])
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, first - 1)
    compiled = compile(module, fn.__code__.co_filename, "exec")
    factory_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    return next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """Nodes of ``body`` outside nested functions, lambdas and classes."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        out.append(n)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def _assigned(body: list[ast.stmt]) -> list[str]:
    """Names ``body`` binds (in first-binding order), nested scopes and generated branches excluded."""
    names: dict[str, None] = {}
    for n in _own_nodes(body):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names[n.id] = None
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[n.name] = None
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for alias in n.names:
                names[(alias.asname or alias.name).split(".")[0]] = None
    return [n for n in names if not n.startswith("__ag_")]


def _escapes(body: list[ast.stmt]) -> bool:
    """Whether control leaves ``body`` other than by falling through, or it declares scopes."""
    loops = (ast.For, ast.While, ast.AsyncFor)
    for n in _own_nodes(body):
        if isinstance(n, (ast.Return, ast.Global, ast.Nonlocal)):
            return True
        if isinstance(n, (ast.Break, ast.Continue)) and not _inside_loop(n, body, loops):
            return True
    return False


def _inside_loop(target: ast.AST, body: list[ast.stmt], loops: tuple) -> bool:
    """Whether ``target`` sits in a loop nested within ``body``."""
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, loops) and n is not target and any(m is target for m in ast.walk(n)):
                return True
    return False


def _ag(attr: str) -> ast.Attribute:
    return ast.Attribute(ast.Name(_AG, ast.Load()), attr, ast.Load())


def _names_tuple(names: list[str], ctx: ast.expr_context) -> ast.Tuple:
    return ast.Tuple([ast.Name(n, ctx) for n in names], ctx)


def _branch_def(name: str, params: list[str], body: list[ast.stmt], returns: ast.expr) -> ast.FunctionDef:
    return ast.FunctionDef(
        name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params], kwonlyargs=[],
                                      kw_defaults=[], defaults=[]),
        body=[*body, ast.Return(returns)], decorator_list=[], returns=None, type_params=[])


def _loads(names: list[str]) -> ast.Tuple:
    return ast.Tuple([ast.Call(_ag("ld"), [ast.Lambda(ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                                                      kw_defaults=[], defaults=[]),
                                                        ast.Name(n, ast.Load())), ast.Constant(n)], [])
                      for n in names], ast.Load())


class _Converter(ast.NodeTransformer):
    """Rewrites ``if``/``while`` statements and calls of one function (nested functions included)."""

    def __init__(self, self_name: str | None) -> None:
        self.count = 0
        self.self_name = self_name  # a method's first parameter, for zero-argument ``super()``

    def _fresh(self, kind: str) -> str:
        self.count += 1
        return f"__ag_{kind}_{self.count}"

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args and self.self_name:
            node.args = [ast.Name("__class__", ast.Load()), ast.Name(self.self_name, ast.Load())]
            return node
        if isinstance(node.func, ast.Name) and node.func.id in ("super", "locals", "globals", "vars", "eval", "exec"):
            return node
        return ast.copy_location(ast.Call(_ag("call"), [node.func, *node.args], node.keywords), node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        thunks = [ast.Lambda(ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), v)
                  for v in node.values[1:]]
        return ast.copy_location(ast.Call(_ag(fn), [node.values[0], *thunks], []), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(ast.Call(_ag("not_"), [node.operand], []), node)
        return node

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        if _escapes(node.body) or _escapes(node.orelse):
            node.test = ast.Call(_ag("py_test"), [node.test, ast.Constant("if")], [])
            return node
        names = _assigned(node.body + node.orelse)
        true_fn, false_fn = self._fresh("if_true"), self._fresh("if_false")
        returns = _names_tuple(names, ast.Load())
        call = ast.Call(_ag("if_stmt"), [node.test, ast.Name(true_fn, ast.Load()), ast.Name(false_fn, ast.Load()),
                                         _loads(names), ast.Constant(tuple(names))], [])
        out = [_branch_def(true_fn, names, node.body, returns),
               _branch_def(false_fn, names, node.orelse or [ast.Pass()], returns),
               ast.Assign([_names_tuple(names, ast.Store())], call) if names else ast.Expr(call)]
        return [ast.copy_location(s, node) for s in out]

    def visit_While(self, node: ast.While) -> Any:
        self.generic_visit(node)
        if node.orelse or _escapes(node.body):
            node.test = ast.Call(_ag("py_test"), [node.test, ast.Constant("while")], [])
            return node
        names = _assigned(node.body)
        test_fn, body_fn = self._fresh("while_test"), self._fresh("while_body")
        call = ast.Call(_ag("while_stmt"), [ast.Name(test_fn, ast.Load()), ast.Name(body_fn, ast.Load()),
                                            _loads(names), ast.Constant(tuple(names))], [])
        test_def = _branch_def(test_fn, names, [], node.test)
        out = [test_def, _branch_def(body_fn, names, node.body, _names_tuple(names, ast.Load())),
               ast.Assign([_names_tuple(names, ast.Store())], call) if names else ast.Expr(call)]
        return [ast.copy_location(s, node) for s in out]


# --- what converted code calls ----------------------------------------------------------------------


def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """A call in converted code: user functions are converted before they run, as TF does."""
    return convert(fn)(*args, **kwargs)


def _symbolic(test: Any) -> bool:
    return isinstance(test, SymbolicTensor)


def _tensor_test(test: Any) -> Any:
    """A variable tests as its value read in the graph, as TF's AutoGraph treats it as a tensor."""
    return test._as_tensor() if hasattr(test, "_as_tensor") else test


def and_(first: Any, *rest: Any) -> Any:
    """``a and b``: ``tf.logical_and`` once a tensor is involved, Python's short circuit otherwise."""
    value = _tensor_test(first)
    for thunk in rest:
        if _symbolic(value):
            from runtime.ops.math import logical_and

            value = logical_and(value, thunk())
        elif not value:
            return value
        else:
            value = thunk()
    return value


def or_(first: Any, *rest: Any) -> Any:
    """``a or b``: ``tf.logical_or`` once a tensor is involved, Python's short circuit otherwise."""
    value = _tensor_test(first)
    for thunk in rest:
        if _symbolic(value):
            from runtime.ops.math import logical_or

            value = logical_or(value, thunk())
        elif value:
            return value
        else:
            value = thunk()
    return value


def not_(value: Any) -> Any:
    """``not x``: ``tf.logical_not`` for a tensor."""
    value = _tensor_test(value)
    if _symbolic(value):
        from runtime.ops.math import logical_not

        return logical_not(value)
    return not value


def py_test(test: Any, statement: str) -> Any:
    """The test of a statement left unconverted (it returns or breaks out of a branch)."""
    if _symbolic(_tensor_test(test)):
        raise Unsupported(f"a tensor-dependent `{statement}` that returns, breaks or declares "
                          "global/nonlocal names inside tf.function (AutoGraph)")
    return test


def if_stmt(test: Any, true_fn: Any, false_fn: Any, init: tuple, names: tuple) -> tuple:
    """``if test:`` — plain Python for a Python test; both branches traced and selected for a tensor."""
    test = _tensor_test(test)
    if not _symbolic(test):
        return true_fn(*init) if test else false_fn(*init)
    from runtime.control_flow import _branch, _select
    from runtime.ops.math import where

    pred = test
    if pred.shape.rank not in (0, None):
        raise ValueError(f"Condition of `if` must be a scalar, but it has shape {pred.shape}.")
    outs_t = _branch(pred, True, lambda: true_fn(*init))
    outs_f = _branch(pred, False, lambda: false_fn(*init))
    return tuple(_merge(name, a, b, lambda a, b: _select(where, pred, a, b))
                 for name, a, b in zip(names, outs_t, outs_f))


def _merge(name: str, a: Any, b: Any, select: Any) -> Any:
    if isinstance(a, Undefined) and isinstance(b, Undefined):
        return a
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        where = "if" if isinstance(a, Undefined) else "else"
        raise ValueError(f"'{name}' must also be initialized in the {where} branch")  # noqa: TRY004 - TF raises ValueError
    if a is b:
        return a
    from runtime.convert import convert_to_tensor

    def pick(x: Any, y: Any) -> Any:
        if x is y:
            return x
        tx, ty = convert_to_tensor(x), convert_to_tensor(y)
        if tx.dtype != ty.dtype:
            raise TypeError(f"'{name}' has dtype {tx.dtype.name} in the main branch, but dtype "
                            f"{ty.dtype.name} in the else branch")
        return select(tx, ty)

    try:
        return nest.map_structure(pick, a, b)
    except (TypeError, ValueError) as exc:
        if "dtype" in str(exc):
            raise
        raise TypeError(f"'{name}' must have the same nested structure in the main and else branches: "
                        f"{exc}") from None


def while_stmt(test_fn: Any, body_fn: Any, init: tuple, names: tuple) -> tuple:
    """``while test:`` — Python loops run as Python; a tensor test known when traced is unrolled."""
    from runtime.graph import constant_value

    state = init
    while True:
        test = _tensor_test(test_fn(*state))
        if _symbolic(test):
            value = constant_value(test)
            if value is None:
                raise Unsupported("a `while` loop over a tensor condition unknown at graph-construction "
                                  "time inside tf.function (AutoGraph tf.while_loop)")
            test = bool(value)
        if not test:
            return state
        state = body_fn(*state)


_MODULE = types.SimpleNamespace(call=call, ld=ld, py_test=py_test, if_stmt=if_stmt, while_stmt=while_stmt,
                                and_=and_, or_=or_, not_=not_)
