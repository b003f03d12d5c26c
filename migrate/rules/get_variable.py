"""TF103: `tf.get_variable(...)` → `tf.Variable(<explicit initial value>, name=...)`."""

from __future__ import annotations

import libcst as cst

from ..api_table import (
    DEFAULT_FLOAT_INITIALIZER,
    DEFAULT_INT_INITIALIZER,
    INITIALIZERS,
    initializer_key,
)
from ..graph import call_args
from ..imports import Aliases
from ..report import Unsupported
from ..start_values import constant_start
from . import Rule

RULE = Rule(
    id="TF103",
    name="get-variable-to-variable",
    summary="Create variables with tf.Variable and an explicit TF1 initializer.",
    doc=(
        "`tf.get_variable(name, shape, dtype, initializer)` becomes "
        "`tf.Variable(<initial value>, name=...)`. The TF1 initializer is made explicit because "
        "TF1 and Keras defaults differ: without an initializer TF1 uses glorot_uniform for "
        "floats (biases included) and zeros for integers. The TF1 name, with its "
        "variable_scope prefix, is kept."
    ),
    kind="auto",
)

GET_VARIABLE_PARAMS = (
    "name", "shape", "dtype", "initializer", "regularizer", "trainable", "collections",
)
CONSTANT_INITIALIZERS = ("zeros_initializer", "ones_initializer", "constant_initializer")
_INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8")


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def initializer_args(call: cst.Call | None, spec_defaults: tuple[tuple[str, str], ...]) -> str:
    """The initializer's arguments as keywords, TF1 defaults filled in (seed None omitted)."""
    bound = call_args(call, tuple(k for k, _ in spec_defaults)) if call is not None else {}
    parts = []
    for keyword, default in spec_defaults:
        value = _code(bound[keyword]) if keyword in bound else default
        if value != "None":
            parts.append(f"{keyword}={value}")
    return ", ".join(parts)


def resolve_initializer(
    expr: cst.BaseExpression | None, dtype: str, aliases: Aliases
) -> tuple[str, cst.Call | None] | None:
    """The INITIALIZERS key of an initializer expression (called or bare), or None."""
    if expr is None:
        is_int = any(dtype.endswith(t) for t in _INT_DTYPES)
        return (DEFAULT_INT_INITIALIZER if is_int else DEFAULT_FLOAT_INITIALIZER), None
    call = expr if isinstance(expr, cst.Call) else None
    path = aliases.resolve(call.func if call is not None else expr)
    if path is not None and path in INITIALIZERS:
        return initializer_key(path, call), call
    return None


def keras_initializer(expr: cst.BaseExpression | None, dtype: str, aliases: Aliases, line: int) -> str:
    """A TF1 initializer spelled for Keras `add_weight(initializer=...)`."""
    found = resolve_initializer(expr, dtype, aliases)
    if found is None:
        raise Unsupported(RULE.id, line, "initializer is not a TF1 initializer the table knows")
    key, call = found
    spec = INITIALIZERS[key]
    return spec.keras.format(args=initializer_args(call, spec.defaults))


def draws_start_values(call: cst.Call, aliases: Aliases) -> bool:
    """True when get_variable starts the variable from a random initializer."""
    args = call_args(call, GET_VARIABLE_PARAMS)
    dtype = _code(args["dtype"]) if "dtype" in args else "tf.float32"
    found = resolve_initializer(args.get("initializer"), dtype, aliases)
    return found is not None and found[0] not in CONSTANT_INITIALIZERS


def variable_from_get_variable(
    call: cst.Call, prefix: str, aliases: Aliases, line: int
) -> str:
    """Source of the `tf.Variable(...)` expression replacing a get_variable call."""
    args = call_args(call, GET_VARIABLE_PARAMS)
    if "name" not in args:
        raise Unsupported(RULE.id, line, "get_variable without a name")
    name = _code(args["name"])
    if prefix:
        if not isinstance(args["name"], cst.SimpleString):
            raise Unsupported(RULE.id, line, "variable name under a scope is not a literal")
        name = repr(prefix + args["name"].evaluated_value)  # type: ignore[operator]
        if "{" in prefix:  # a scope named by a constructor argument: `f'{scope}/w'`
            name = "f" + name
    dtype = _code(args["dtype"]) if "dtype" in args else "tf.float32"
    init = args.get("initializer")
    found = resolve_initializer(init, dtype, aliases)
    extra = ""
    if "trainable" in args:
        extra = f", trainable={_code(args['trainable'])}"
    if found is None and "shape" in args:
        # TF1 refuses a shape beside a constant initial value, so this is an initializer
        # object (often bound to a name once and shared): call it as get_variable did.
        return f"tf.Variable({_code(init)}({_code(args['shape'])}, {dtype}), name={name}{extra})"  # type: ignore[arg-type]
    if found is None:
        # A tensor or array initial value: the shape comes from the value, as in TF1.
        dtype_part = f", dtype={dtype}" if "dtype" in args else ""
        return f"tf.Variable({_code(init)}, name={name}{dtype_part}{extra})"  # type: ignore[arg-type]
    if "shape" not in args:
        raise Unsupported(RULE.id, line, "get_variable with an initializer function needs a shape")
    key, init_call = found
    spec = INITIALIZERS[key]
    value = constant_start(key, init_call, args["shape"], dtype) or spec.value.format(
        shape=_code(args["shape"]), dtype=dtype, args=initializer_args(init_call, spec.defaults)
    )
    return f"tf.Variable({value}, name={name}{extra})"
