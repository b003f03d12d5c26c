"""TF1 calls whose TF2 form takes other values, not only other names (tf_upgrade_v2 converts
these with code of its own; here each is one function from the TF1 call to the TF2 call).

Each returns the call unchanged when its arguments are not ones it can convert; the rename
pass then binds what is left by the signatures and reports what TF2 lacks.
"""

from __future__ import annotations

import libcst as cst

from .codegen import code
from .graph import call_args


def _is_none(expr: cst.BaseExpression | None) -> bool:
    return expr is None or (isinstance(expr, cst.Name) and expr.value == "None")


def _param(call: cst.Call, params: tuple[str, ...], arg: cst.Arg) -> str | None:
    """The parameter an argument binds to."""
    if arg.keyword is not None:
        return arg.keyword.value
    index = [a for a in call.args if a.keyword is None].index(arg)
    return params[index] if index < len(params) else None


def _with_args(call: cst.Call, args: list[cst.Arg]) -> cst.Call:
    """The call with these arguments, each as written (comments and layout kept); the last
    one ends as the call's last argument ended."""
    if args:
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma)
    return call.with_changes(args=args)


def name_scope(call: cst.Call, alias: str) -> cst.Call:
    """v1 `name_scope(name, default_name, values)` → TF2 `name_scope(name)`: the name, or the
    default name when none is given; `values` only picked the graph, which TF2 knows."""
    params = ("name", "default_name", "values")
    if any(a.star for a in call.args) or any(_param(call, params, a) not in params for a in call.args):
        return call
    bound = call_args(call, params)
    name, default = bound.get("name"), bound.get("default_name")
    if not _is_none(name) and default is not None:
        return call  # both: TF2 has no default to fall back on
    keep = "default_name" if _is_none(name) else "name"
    args = [a.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
            for a in call.args if _param(call, params, a) == keep]
    return _with_args(call, args) if args else call


_GLIMPSE = ("input", "size", "offsets", "centered", "normalized", "uniform_noise", "name")


def extract_glimpse(call: cst.Call, alias: str) -> cst.Call:
    """v1 `uniform_noise=flag` → TF2 `noise='uniform'` or `'gaussian'`."""
    if any(a.star for a in call.args):
        return call
    args = list(call.args)
    for i, arg in enumerate(args):
        if _param(call, _GLIMPSE, arg) != "uniform_noise":
            continue
        flag = arg.value
        if isinstance(flag, cst.Name) and flag.value in ("True", "False"):
            noise: cst.BaseExpression = cst.SimpleString("'uniform'" if flag.value == "True" else "'gaussian'")
        else:
            noise = cst.parse_expression(f"'uniform' if ({code(flag)}) else 'gaussian'")
        equal = arg.equal if arg.keyword is not None else cst.AssignEqual(
            cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
        args[i] = arg.with_changes(keyword=cst.Name("noise"), equal=equal, value=noise)
        return call.with_changes(args=args)
    return call


_SPLIT = ("input", "sep", "maxsplit", "result_type", "source", "name")
_SPLIT_RESULTS = {"'SparseTensor'": True, '"SparseTensor"': True, "'RaggedTensor'": False, '"RaggedTensor"': False}


def strings_split(call: cst.Call, alias: str) -> cst.BaseExpression | None:
    """v1 `strings.split` returned a SparseTensor unless told `result_type='RaggedTensor'`; TF2's
    returns the RaggedTensor, whose `.to_sparse()` is v1's result. v1's `source` is `input`.
    None for a result type that is no literal (TF1's function under compat.v1 takes it)."""
    if any(a.star for a in call.args) or sum(1 for a in call.args if a.keyword is None) > 3:
        return None
    params = [_param(call, _SPLIT, a) for a in call.args]
    if None in params or len({"input", "source"} & set(params)) != 1:
        return None  # no input (TF1 raised), or both
    result = next((code(a.value) for a, p in zip(call.args, params) if p == "result_type"), "'SparseTensor'")
    if result not in _SPLIT_RESULTS:
        return None
    args = [a.with_changes(keyword=cst.Name("input")) if p == "source" else a
            for a, p in zip(call.args, params) if p != "result_type"]
    split = _with_args(call, args) if args else call.with_changes(args=[])
    if not _SPLIT_RESULTS[result]:
        return split
    return cst.Call(func=cst.Attribute(value=split, attr=cst.Name("to_sparse")))


def _is_string(expr: cst.BaseExpression) -> bool:
    """A string by its spelling: a literal, an f-string, `'/gpu:%d' % i`, `'/gpu:{}'.format(i)`."""
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
        return _is_string(expr.left)
    return (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value == "format" and _is_string(expr.func.value))


def device(call: cst.Call, alias: str) -> cst.Call | None:
    """v1 `device(device_name_or_function)` took a device name or a function that picks one;
    TF2's `device(device_name)` takes the name alone. A call given a string is TF2's as it
    stands (positionally); None for any other (TF1's function under compat.v1 takes it)."""
    if len(call.args) != 1 or call.args[0].star or not _is_string(call.args[0].value):
        return None
    arg = call.args[0]
    if arg.keyword is not None and arg.keyword.value != "device_name_or_function":
        return None
    return call.with_changes(args=[arg.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)])
