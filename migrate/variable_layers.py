"""`tf.Variable(<initial value>, name=...)` weights of a layer function → Keras `add_weight`.

A hand-written layer (`def conv_block(x, filters, name): with tf.name_scope(name): kernel =
tf.Variable(tf.truncated_normal([3, 3, in_ch, filters], stddev=0.1), name="kernel")`) names its
variables `conv1/kernel` and takes their shape from the initial value. As a Keras layer the weight
is made in `build` with that shape. A random initial value stays the same random op, called by
the weight's initializer with the op seed TF1's graph gave it (the layer's `seed`), so TF2 draws
the numbers TF1 drew.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from .codegen import code, is_docstring
from .graph import call_args, names_read
from .imports import Aliases
from .report import Unsupported
from .rules.variable_scope import RULE
from .walk import walk

VARIABLE_PARAMS = (
    "initial_value",
    "trainable",
    "collections",
    "validate_shape",
    "caching_device",
    "name",
)
#: tf.Variable arguments a Keras weight keeps (the others have no add_weight form); a
#: `regularizer` is what a weight helper's 'losses' entry became (loss_collection).
_KEPT = frozenset({"initial_value", "trainable", "name", "dtype", "regularizer"})
#: Layer functions may name their scope with either: both prefix a tf.Variable's name.
SCOPES = ("variable_scope", "name_scope")
SEED = "seed"  # the layer's constructor argument holding its first op seed


@dataclass(frozen=True)
class InitialValue:
    """A TF1 op building a variable's initial value, read as a Keras initializer."""

    params: tuple[str, ...]  # its signature, as far as the table reads it
    shape: str  # the parameter giving the weight's shape
    initializer: str | None  # Keras initializer, formatted with the bound parameters; None: random


_NORMAL = ("shape", "mean", "stddev", "dtype", "seed", "name")
_UNIFORM = ("shape", "minval", "maxval", "dtype", "seed", "name")
INITIAL_VALUES: dict[str, InitialValue] = {
    "zeros": InitialValue(("shape", "dtype", "name"), "shape", "'zeros'"),
    "ones": InitialValue(("shape", "dtype", "name"), "shape", "'ones'"),
    "constant": InitialValue(
        ("value", "dtype", "shape", "name"), "shape", "tf.constant_initializer({value})"
    ),
    "fill": InitialValue(("dims", "value", "name"), "dims", "tf.constant_initializer({value})"),
    "random_normal": InitialValue(_NORMAL, "shape", None),
    "random.normal": InitialValue(_NORMAL, "shape", None),
    "truncated_normal": InitialValue(_NORMAL, "shape", None),
    "random.truncated_normal": InitialValue(_NORMAL, "shape", None),
    "random_uniform": InitialValue(_UNIFORM, "shape", None),
    "random.uniform": InitialValue(_UNIFORM, "shape", None),
}


@dataclass
class Weight:
    """One `add_weight` of a layer's `build`."""

    target: str
    name: str  # source
    shape: cst.BaseExpression  # as the function computed it
    initializer: str  # source; a random one reads the layer's seed
    extra: str  # `, dtype=...`, `, trainable=...`, `, regularizer=...`
    draws: bool  # takes the next op seed


def regularized_variable(call: cst.Call, aliases: Aliases) -> bool:
    """`tf.Variable(..., regularizer=r)`: a weight helper's 'losses' entry made the weight's own
    (loss_collection.py), which only a layer's `add_weight` takes."""
    return aliases.resolve(call.func) == "Variable" and any(
        a.keyword is not None and a.keyword.value == "regularizer" for a in call.args)


def variable_call(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str, cst.Call] | None:
    """(target, call) of `target = tf.Variable(...)`."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return None
    small = stmt.body[0]
    if not (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
    ):
        return None
    value = small.value
    if isinstance(value, cst.Call) and aliases.resolve(value.func) == "Variable":
        return small.targets[0].target.value, value
    return None


def variable_layer(func: cst.FunctionDef, aliases: Aliases) -> bool:
    """A function creating `tf.Variable` weights (no get_variable) whose shape reads its first
    parameter's static shape: a layer, built once the input's shape is known (inlined at its call, its
    variables would be created from a computed tensor)."""
    params = [p.name.value for p in func.params.params]
    body = list(func.body.body)  # type: ignore[union-attr]
    body = body[1:] if body and is_docstring(body[0]) else body
    if not params:
        return False
    if len(body) == 1 and isinstance(body[0], cst.With) and len(body[0].items) == 1:
        scope = body[0].items[0].item
        if (
            isinstance(scope, cst.Call)
            and aliases.resolve(scope.func) in SCOPES
            and len(scope.args) == 1
            and isinstance(scope.args[0].value, cst.Name)
            and scope.args[0].value.value in params[1:]
        ):
            body = list(body[0].body.body)  # type: ignore[union-attr]
    if any(
        isinstance(n, cst.Call) and aliases.resolve(n.func) == "get_variable"
        for s in body
        for n in walk(s)
    ):
        return False
    shaped: set[str] = set()  # names computed from the input's shape
    for stmt in body:
        read = {n.value for n in names_read(stmt)}
        from_shape = _reads_shape(stmt, params[0]) or bool(read & shaped)
        if variable_call(stmt, aliases) is not None and (from_shape or read & set(params[1:])):
            return True
        if from_shape:
            shaped.update(assigned_names(stmt))
    return False


#: What may surround the initial-value op in arithmetic the initializer keeps.
_ARITHMETIC = (cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float, cst.Name,
               cst.Attribute, cst.Arg, cst.List, cst.Tuple, cst.Element, cst.LeftParen,
               cst.RightParen, cst.BaseBinaryOp, cst.BaseUnaryOp, cst.Comma,
               cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.Newline, cst.EmptyLine,
               cst.TrailingWhitespace, cst.LeftSquareBracket, cst.RightSquareBracket)


def _initial_op(value: cst.BaseExpression, aliases: Aliases) -> cst.Call | None:
    """The one table op building ``value``: ``value`` itself, or the only call in arithmetic
    on it with numbers and names (``tf.random_normal([n, m]) * 0.01``); None otherwise."""
    if isinstance(value, cst.Call):
        path = aliases.resolve(value.func)
        return value if path in INITIAL_VALUES and not any(a.star for a in value.args) else None
    calls = [n for n in walk(value) if isinstance(n, cst.Call)]
    if len(calls) != 1 or _initial_op(calls[0], aliases) is None:
        return None
    inside = {id(n) for n in walk(calls[0])}
    if any(not isinstance(n, _ARITHMETIC) for n in walk(value) if id(n) not in inside):
        return None
    return calls[0]


def _reads_shape(node: cst.CSTNode, inputs: str) -> bool:
    """`inputs.shape` or `inputs.get_shape()` occurs in `node`."""
    return any(
        isinstance(n, cst.Attribute)
        and isinstance(n.value, cst.Name)
        and n.value.value == inputs
        and n.attr.value in ("shape", "get_shape")
        for n in walk(node)
    )


def assigned_names(stmt: cst.BaseStatement) -> list[str]:
    """The plain names an assignment statement binds."""
    if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Assign):
        return [t.target.value for t in stmt.body[0].targets if isinstance(t.target, cst.Name)]
    return []


def variable_weight(target: str, call: cst.Call, draws: int, aliases: Aliases, line: int) -> Weight:
    """The weight `target = tf.Variable(<op>(shape, ...), name=...)` makes; `draws` random weights
    of the layer come before it (its op seed is the layer's seed plus that)."""
    args = call_args(call, VARIABLE_PARAMS)
    if set(args) - _KEPT or "initial_value" not in args:
        raise Unsupported(
            RULE.id, line, f"{target}: a layer weight takes no other tf.Variable options"
        )
    name = code(args["name"]) if "name" in args else f'"{target}"'  # unnamed in TF1: named as held
    value = args["initial_value"]
    op = _initial_op(value, aliases)
    if op is None:
        raise Unsupported(
            RULE.id, line, f"{target}: initial value is not an op the weight can be initialized by"
        )
    spec = INITIAL_VALUES[aliases.resolve(op.func) or ""]
    bound = call_args(op, spec.params)
    if spec.shape not in bound:
        raise Unsupported(RULE.id, line, f"{target}: initial value without a shape")
    extra = "".join(f", {k}={code(args[k])}" for k in ("dtype", "trainable", "regularizer") if k in args)
    if "dtype" in bound and "dtype" not in args:
        extra = f", dtype={code(bound['dtype'])}{extra}"
    if spec.initializer is not None and op is value:
        initializer = spec.initializer.format(**{k: code(v) for k, v in bound.items()})
        return Weight(
            target, name, bound[spec.shape], initializer, extra, draws=False
        )
    # A random op, or an op inside arithmetic (`tf.zeros([n]) + 0.1`): the initializer
    # computes the value as written, with the weight's shape.
    unseeded = spec.initializer is None and "seed" not in bound
    shape_arg = bound[spec.shape]
    args_out = [
        a.with_changes(value=cst.Name("shape")) if a.value is shape_arg else a for a in op.args
    ]
    if unseeded:
        seed = (
            f"self.{SEED}"
            if draws == 0
            else f"None if self.{SEED} is None else self.{SEED} + {draws}"
        )
        args_out[-1] = args_out[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        )
        args_out.append(
            cst.Arg(
                cst.parse_expression(seed),
                keyword=cst.Name("seed"),
                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
            )
        )
    computed = op.with_changes(args=args_out)
    initial = computed if op is value else value.deep_replace(op, computed)
    initializer = f"lambda shape, dtype: {code(initial)}"
    return Weight(target, name, shape_arg, initializer, extra, draws=unseeded)
