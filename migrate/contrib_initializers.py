"""contrib's variance-scaling initializers as Keras's `VarianceScaling`, with TF1's numbers.

contrib's `variance_scaling_initializer(factor, mode, uniform, seed, dtype)` draws uniformly in
±sqrt(3 * factor / n) - Keras's `scale=factor` - or from a normal truncated at two standard
deviations of sqrt(1.3 * factor / n), where Keras divides sqrt(scale / n) by the truncation's
0.8796...: `scale=1.3 * factor * 0.87962566103423978 ** 2`. n is fan_in, fan_out or their mean
as `mode` says (contrib spells it in capitals). The xavier initializers are the same with
factor 1.0 and mode 'FAN_AVG'.
"""

from __future__ import annotations

import ast

import libcst as cst

from .codegen import code

_XAVIER = (("uniform", "seed", "dtype"), {"factor": "1.0", "mode": "'FAN_AVG'", "uniform": "True"})
# path -> (TF1 parameters in order, TF1 defaults of factor, mode and uniform)
SPECS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "contrib.layers.variance_scaling_initializer": (
        ("factor", "mode", "uniform", "seed", "dtype"), {"factor": "2.0", "mode": "'FAN_IN'", "uniform": "False"},
    ),
    "contrib.layers.xavier_initializer": _XAVIER,
    "contrib.layers.xavier_initializer_conv2d": _XAVIER,
}
_TRUNCATION = "0.87962566103423978 ** 2"


def _literal(text: str) -> object:
    """The value of an expression of literals and operators only (`True or False`), else None."""
    tree = ast.parse(text, mode="eval")
    if not all(isinstance(n, (ast.Expression, ast.Constant, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.operator,
                              ast.boolop, ast.unaryop)) for n in ast.walk(tree)):
        return None
    try:
        return eval(compile(tree, "<arg>", "eval"), {"__builtins__": {}})  # literals and operators only
    except Exception:  # noqa: BLE001 - 1 / 0 and the like: not a value to write
        return None


def _term(text: str) -> str:
    expr = cst.parse_expression(text)
    simple = isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float))
    return text if simple else f"({text})"


def _truncated_scale(factor: str) -> str:
    return f"1.3 * {_TRUNCATION}" if _literal(factor) == 1.0 else f"1.3 * {_term(factor)} * {_TRUNCATION}"


def _bound(params: tuple[str, ...], call: cst.Call) -> dict[str, str] | None:
    """The call's arguments by TF1 parameter, as written; None when some binds to none."""
    bound: dict[str, str] = {}
    for i, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (params[i] if i < len(params) else None)
        if arg.star or name not in params or name in bound:
            return None
        bound[name] = code(arg.value)
    return bound


def plain_xavier(path: str, call: cst.Call) -> bool:
    """A xavier initializer the initializer table spells (no seed, `uniform` absent or a bare
    True/False): its Keras name."""
    bound = _bound(SPECS[path][0], call)
    return (path == "contrib.layers.xavier_initializer" and bound is not None and "seed" not in bound
            and bound.get("uniform", "True") in ("True", "False"))


def variance_scaling(path: str, call: cst.Call, alias: str) -> cst.BaseExpression | None:
    """`tf.keras.initializers.VarianceScaling(...)` drawing as the contrib call did; None when
    its arguments are not ones this can say (a dtype other than float32, a flag to evaluate)."""
    params, defaults = SPECS[path]
    bound = _bound(params, call)
    if bound is None or not bound.get("dtype", "float32").endswith("float32"):
        return None  # Keras initializers take the dtype of the variable they start
    factor, mode, uniform = (bound.get(k, defaults[k]) for k in ("factor", "mode", "uniform"))
    literal_mode = _literal(mode)
    mode = repr(literal_mode.lower()) if isinstance(literal_mode, str) else f"{_term(mode)}.lower()"
    flag = _literal(uniform)
    if flag is not None:
        scale = factor if flag else _truncated_scale(factor)
        distribution = "'uniform'" if flag else "'truncated_normal'"
    elif isinstance(cst.parse_expression(uniform), (cst.Name, cst.Attribute)):  # read twice: no effects
        scale = f"{factor} if {uniform} else {_truncated_scale(factor)}"
        distribution = f"'uniform' if {uniform} else 'truncated_normal'"
        scale, distribution = f"({scale})", f"({distribution})"
    else:
        return None
    seed = f", seed={bound['seed']}" if "seed" in bound else ""
    return cst.parse_expression(
        f"{alias}.keras.initializers.VarianceScaling(scale={scale}, mode={mode}, distribution={distribution}{seed})"
    )
