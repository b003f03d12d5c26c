"""A variable's constant start value as a person writes it.

`tf.get_variable('x', [], initializer=tf.constant_initializer(3.))` starts from the constant
3.0: `tf.Variable(3., name='x')` says that, where calling the initializer object
(`tf.constant_initializer(value=3.)([], tf.float32)`) only repeats TF1's machinery. Each form
here gives the same values and dtype as the initializer call: another value (an array, a list
of ints) is `tf.constant(value, tf.float32, shape)`, which is what the initializer computes;
another dtype, or a float list of another shape than the variable's, keeps the call.
"""

from __future__ import annotations

import libcst as cst

from .codegen import code
from .graph import call_args

_FLOAT32 = "tf.float32"


def _number(node: cst.BaseExpression) -> cst.Integer | cst.Float | None:
    """The literal of `3`, `-0.5`, `+2.` (the number node), else None."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return node if isinstance(node, (cst.Integer, cst.Float)) else None


def _float_text(node: cst.BaseExpression) -> str | None:
    """`3` → `3.0`, `-.5` → `-.5`: a float literal (float32 in TF), or None for a non-number."""
    number = _number(node)
    if number is None:
        return None
    text = code(node)
    return text + ".0" if isinstance(number, cst.Integer) else text


def _dims(node: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The dimensions of a shape written as a list or tuple (`[n, 3]`), else None."""
    if not isinstance(node, (cst.List, cst.Tuple)):
        return None
    if any(isinstance(e, cst.StarredElement) for e in node.elements):
        return None
    return [e.value for e in node.elements]


def _literal_dims(dims: list[cst.BaseExpression]) -> list[int] | None:
    """`[2, 3]` → [2, 3] when every dimension is an integer literal."""
    if not all(isinstance(d, cst.Integer) for d in dims):
        return None
    return [int(d.evaluated_value) for d in dims]  # type: ignore[attr-defined]


def _float_nest_shape(node: cst.BaseExpression) -> list[int] | None:
    """The shape of a nest of float literals (`[[1., 2.], [3., 4.]]` → [2, 2]), else None."""
    if isinstance(node, (cst.List, cst.Tuple)):
        shapes = [_float_nest_shape(e.value) for e in node.elements]
        if not shapes or any(s is None or s != shapes[0] for s in shapes):
            return None
        return [len(shapes)] + shapes[0]  # type: ignore[operator]
    number = _number(node)
    return [] if isinstance(number, cst.Float) else None


def constant_start(key: str, call: cst.Call | None, shape: cst.BaseExpression, dtype: str) -> str | None:
    """The start value of a constant initializer `key` (`zeros_initializer`, ...) written plainly,
    or None to keep the initializer call."""
    dtype_part = "" if dtype == _FLOAT32 else f", {dtype}"
    if key in ("zeros_initializer", "ones_initializer"):
        return f"tf.{key.split('_')[0]}({code(shape)}{dtype_part})"
    if key != "constant_initializer" or dtype != _FLOAT32:
        return None
    bound = call_args(call, ("value",)) if call is not None else {}
    if "value" not in bound:
        return f"tf.zeros({code(shape)})"
    value = bound["value"]
    dims = _dims(shape)
    scalar = _float_text(value)
    if scalar is not None:
        if dims == []:
            return scalar
        return f"tf.fill({code(shape)}, {scalar})" if dims is not None else None
    if dims is not None and (literal := _literal_dims(dims)) is not None and _float_nest_shape(value) == literal:
        return code(value)
    if isinstance(value, (cst.List, cst.Tuple)) and _float_nest_shape(value) is not None:
        return None  # a list of another shape: TF1 repeated its last value, TF2 refuses it
    # any other value (an array, an int list): what the initializer computes
    return f"tf.constant({code(value)}, tf.float32, {code(shape)})"
