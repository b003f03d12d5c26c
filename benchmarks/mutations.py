"""Plausible migration mistakes, injected one at a time into a TF2 program's source.

Each kind is a table entry: the syntax node it acts on and a function giving every wrong
variant of one such node (none when the node is not a site). A program's sites are those
variants in tree order, so ``mutate(source, kind, index)`` is a pure function of its
arguments and a campaign is reproducible from its seed (``plan``).
"""

from __future__ import annotations

import ast
import functools
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node

Variants = Callable[[cst.CSTNode], list[cst.CSTNode]]


@dataclass(frozen=True)
class Kind:
    name: str
    mistake: str  # what a person migrating by hand gets wrong, one line
    node: type[cst.CSTNode] | tuple[type[cst.CSTNode], ...]
    variants: Variants


def _name(node: cst.CSTNode) -> str:
    return get_full_name_for_node(node) or ""


def _call_name(node: cst.CSTNode) -> str:
    return _name(node.func) if isinstance(node, cst.Call) else ""


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _expr(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def _positional(call: cst.Call) -> list[int]:
    return [i for i, a in enumerate(call.args) if a.keyword is None and not a.star]


def _keywords(call: cst.Call) -> list[int]:
    return [i for i, a in enumerate(call.args) if a.keyword is not None]


def _with_args(call: cst.Call, args: list[cst.Arg]) -> cst.Call:
    """``call`` with ``args``, the last one without a trailing comma it did not have."""
    if args and call.args and args[-1] is not call.args[-1]:
        args = [*args[:-1], args[-1].with_changes(comma=call.args[-1].comma)]
    return call.with_changes(args=args)


def _set_value(call: cst.Call, i: int, value: cst.BaseExpression) -> cst.Call:
    args = list(call.args)
    args[i] = args[i].with_changes(value=value)
    return call.with_changes(args=args)


def _drop_arg(call: cst.Call, i: int) -> cst.Call:
    return _with_args(call, [a for j, a in enumerate(call.args) if j != i])


def _plus_one(expr: cst.BaseExpression, delta: int) -> cst.BaseExpression:
    """``expr`` moved by ``delta``: a literal changes, anything else gets ``+ delta``."""
    if isinstance(expr, cst.Integer):
        return cst.Integer(str(int(expr.value, 0) + delta))
    sign = "+" if delta > 0 else "-"
    return _expr(f"{_code(expr)} {sign} {abs(delta)}")


# --- kinds -------------------------------------------------------------------------------

_NO_SWAP = {"print", "isinstance", "getattr", "setattr", "hasattr"}


def swapped_call_args(node: cst.Call) -> list[cst.CSTNode]:
    """The first two positional arguments exchanged (``tf.matmul(w, x)``, ``labels, logits``)."""
    if _call_name(node) in _NO_SWAP:
        return []
    pos = _positional(node)
    if len(pos) < 2:
        return []
    a, b = pos[0], pos[1]
    if _code(node.args[a].value) == _code(node.args[b].value):
        return []
    swapped = _set_value(node, a, node.args[b].value)
    return [_set_value(swapped, b, node.args[a].value)]


def swapped_keyword_values(node: cst.Call) -> list[cst.CSTNode]:
    """Two keyword arguments' values exchanged (``labels=logits, logits=labels``)."""
    kw = _keywords(node)
    out = []
    for a, b in itertools.pairwise(kw):
        if _code(node.args[a].value) != _code(node.args[b].value):
            swapped = _set_value(node, a, node.args[b].value)
            out.append(_set_value(swapped, b, node.args[a].value))
    return out


ACTIVATIONS = {
    f"tf.{space}{fn}"
    for space in ("nn.", "math.", "", "keras.activations.")
    for fn in ("relu", "relu6", "tanh", "sigmoid", "elu", "selu", "softplus", "leaky_relu",
               "softmax", "log_softmax", "swish", "gelu")
}


def dropped_activation(node: cst.Call) -> list[cst.CSTNode]:
    """An activation call left out, or a layer's ``activation=`` argument forgotten."""
    out: list[cst.CSTNode] = []
    pos = _positional(node)
    if _call_name(node) in ACTIVATIONS and pos:
        out.append(node.args[pos[0]].value)
    for i in _keywords(node):
        arg = node.args[i]
        if arg.keyword.value == "activation" and _code(arg.value) not in ("None", "'linear'", '"linear"'):
            out.append(_drop_arg(node, i))
    return out


def nudged_constant(node: cst.Float) -> list[cst.CSTNode]:
    """A float constant off by 1e-3 relative (a learning rate, a stddev, a decay)."""
    value = float(node.value.replace("_", ""))
    if value == 0.0:
        return []
    return [cst.Float(repr(value * (1 + 1e-3)))]


OPTIMIZER_PREFIXES = ("tf.keras.optimizers.", "tf.optimizers.", "keras.optimizers.")
KERAS_EPSILON = "1e-07"


def optimizer_default(node: cst.Call) -> list[cst.CSTNode]:
    """An optimizer hyperparameter left to its Keras default (epsilon 1e-7, ...)."""
    if not _call_name(node).startswith(OPTIMIZER_PREFIXES):
        return []
    out: list[cst.CSTNode] = []
    for i in _keywords(node):
        out.append(_drop_arg(node, i))
        if node.args[i].keyword.value == "epsilon" and _code(node.args[i].value) != KERAS_EPSILON:
            out.append(_set_value(node, i, cst.Float(KERAS_EPSILON)))
    return out


REDUCTIONS = {"reduce_mean": "reduce_sum", "reduce_sum": "reduce_mean"}


def reduction_swapped(node: cst.Call) -> list[cst.CSTNode]:
    """A mean taken as a sum or a sum as a mean."""
    name = _call_name(node)
    if not name.startswith("tf.") or not isinstance(node.func, cst.Attribute):
        return []
    other = REDUCTIONS.get(node.func.attr.value)
    return [node.with_changes(func=node.func.with_changes(attr=cst.Name(other)))] if other else []


def wrong_slice_bound(node: cst.Slice) -> list[cst.CSTNode]:
    """A split or batch slice one element off (``[:160]`` as ``[:159]``, ``[i:i+32]``)."""
    out: list[cst.CSTNode] = []
    if node.lower is not None:
        out.append(node.with_changes(lower=_plus_one(node.lower, 1)))
    if node.upper is not None:
        upper = node.upper
        negative = isinstance(upper, cst.UnaryOperation) and isinstance(upper.operator, cst.Minus)
        out.append(node.with_changes(upper=_plus_one(upper, 1 if negative else -1)))
    return out


def dropped_stop_gradient(node: cst.Call) -> list[cst.CSTNode]:
    """``tf.stop_gradient(x)`` rewritten as ``x``."""
    pos = _positional(node)
    if _call_name(node) in ("tf.stop_gradient", "tf.raw_ops.StopGradient") and pos:
        return [node.args[pos[0]].value]
    return []


def _without(expr: cst.List | cst.Tuple, i: int) -> cst.BaseExpression:
    kept = [e for j, e in enumerate(expr.elements) if j != i]
    single_tuple = isinstance(expr, cst.Tuple) and len(kept) == 1
    kept[-1] = kept[-1].with_changes(comma=cst.Comma() if single_tuple else cst.MaybeSentinel.DEFAULT)
    return expr.with_changes(elements=kept)


def _shorter(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """A list of variables missing its first or its last one."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        n = len(expr.elements)
        return [_without(expr, 0), _without(expr, n - 1)] if n >= 2 else []
    return [_expr(f"list({_code(expr)})[:-1]")]


def wrong_var_list(node: cst.Call) -> list[cst.CSTNode]:
    """Gradients taken, or applied, for a variable list that misses a variable."""
    out: list[cst.CSTNode] = []
    func = node.func
    attr = func.attr.value if isinstance(func, cst.Attribute) else ""
    pos = _positional(node)
    if attr == "gradient" and len(pos) >= 2:
        out += [_set_value(node, pos[1], e) for e in _shorter(node.args[pos[1]].value)]
    if attr == "apply_gradients" and pos:
        zipped = node.args[pos[0]].value
        if _call_name(zipped) == "zip" and len(_positional(zipped)) == 2:
            j = _positional(zipped)[1]
            out += [_set_value(node, pos[0], _set_value(zipped, j, e))
                    for e in _shorter(zipped.args[j].value)]
    for i in _keywords(node):
        if node.args[i].keyword.value == "var_list":
            out += [_set_value(node, i, e) for e in _shorter(node.args[i].value)]
    return out


_NOT_MOVED = (cst.Import, cst.ImportFrom, cst.Return, cst.Global, cst.Nonlocal, cst.Pass,
              cst.Break, cst.Continue)


def eval_before_training(node: cst.Module | cst.IndentedBlock) -> list[cst.CSTNode]:
    """The statement after a loop (an evaluation, a final print) moved before it."""
    body = list(node.body)
    out: list[cst.CSTNode] = []
    for i in range(len(body) - 1):
        loop, after = body[i], body[i + 1]
        if isinstance(loop, (cst.For, cst.While)) and isinstance(after, cst.SimpleStatementLine) \
                and not any(isinstance(s, _NOT_MOVED) for s in after.body):
            moved = [*body[:i], after.with_changes(leading_lines=loop.leading_lines),
                     loop.with_changes(leading_lines=after.leading_lines), *body[i + 2:]]
            out.append(node.with_changes(body=moved))
    return out


MATMULS = {"tf.matmul", "tf.linalg.matmul"}


def transposed_matmul(node: cst.Call | cst.BinaryOperation) -> list[cst.CSTNode]:
    """A matmul operand transposed (``transpose_b`` flipped, or ``tf.transpose`` added)."""
    if isinstance(node, cst.BinaryOperation):
        if isinstance(node.operator, cst.MatrixMultiply):
            return [node.with_changes(left=_expr(f"tf.transpose({_code(node.left)})"))]
        return []
    if _call_name(node) not in MATMULS:
        return []
    out: list[cst.CSTNode] = []
    for flag in ("transpose_a", "transpose_b"):
        given = [i for i in _keywords(node) if node.args[i].keyword.value == flag]
        if given:
            value = _code(node.args[given[0]].value)
            out.append(_set_value(node, given[0], cst.Name("False" if value == "True" else "True")))
        else:
            arg = cst.Arg(cst.Name("True"), keyword=cst.Name(flag),
                          equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
            out.append(_with_args(node, [*[a.with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" "))) if j == len(node.args) - 1 else a
                for j, a in enumerate(node.args)], arg]))
    return out


def _is_text(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))


def sign_flip(node: cst.BinaryOperation | cst.UnaryOperation) -> list[cst.CSTNode]:
    """A ``+`` written ``-`` or the other way round; a negation lost."""
    if isinstance(node, cst.UnaryOperation):
        return [node.expression] if isinstance(node.operator, cst.Minus) else []
    if _is_text(node.left) or _is_text(node.right):
        return []
    flip = {cst.Add: cst.Subtract, cst.Subtract: cst.Add}.get(type(node.operator))
    if flip is None:
        return []
    op = node.operator
    return [node.with_changes(operator=flip(whitespace_before=op.whitespace_before,
                                            whitespace_after=op.whitespace_after))]


def off_by_one_loop(node: cst.Call | cst.Comparison) -> list[cst.CSTNode]:
    """A loop that runs once more or once less (``range(n)`` as ``range(n + 1)``, ``<`` as ``<=``)."""
    if isinstance(node, cst.Comparison):
        swaps = {cst.LessThan: cst.LessThanEqual, cst.LessThanEqual: cst.LessThan}
        out = []
        for i, target in enumerate(node.comparisons):
            flip = swaps.get(type(target.operator))
            if flip is not None:
                op = target.operator
                new = target.with_changes(operator=flip(whitespace_before=op.whitespace_before,
                                                        whitespace_after=op.whitespace_after))
                comparisons = list(node.comparisons)
                comparisons[i] = new
                out.append(node.with_changes(comparisons=comparisons))
        return out
    pos = _positional(node)
    if _call_name(node) != "range" or not pos:
        return []
    stop = pos[0] if len(pos) == 1 else pos[1]
    return [_set_value(node, stop, _plus_one(node.args[stop].value, d)) for d in (1, -1)]


REGULARIZATION_MARKS = ("l2_loss", "regulariz", "l2", "penalty", "weight_decay", "reg_")


def _regularizes(expr: cst.BaseExpression) -> bool:
    text = _code(expr).lower()
    return any(mark in text for mark in REGULARIZATION_MARKS)


def dropped_regularization(node: cst.BinaryOperation | cst.Call) -> list[cst.CSTNode]:
    """A loss's regularization term, or a layer's regularizer, left out."""
    if isinstance(node, cst.Call):
        return [_drop_arg(node, i) for i in _keywords(node)
                if "regularizer" in node.args[i].keyword.value and _code(node.args[i].value) != "None"]
    if not isinstance(node.operator, cst.Add):
        return []
    out: list[cst.CSTNode] = []
    if _regularizes(node.right) and not _regularizes(node.left):
        out.append(node.left)
    if _regularizes(node.left) and not _regularizes(node.right):
        out.append(node.right)
    return out


def swapped_dict_values(node: cst.Dict) -> list[cst.CSTNode]:
    """Two entries of a dict (fetches, metrics, feeds) given each other's values."""
    els = list(node.elements)
    out: list[cst.CSTNode] = []
    for i in range(len(els) - 1):
        a, b = els[i], els[i + 1]
        if isinstance(a, cst.DictElement) and isinstance(b, cst.DictElement) \
                and _code(a.value) != _code(b.value):
            swapped = [*els[:i], a.with_changes(value=b.value), b.with_changes(value=a.value), *els[i + 2:]]
            out.append(node.with_changes(elements=swapped))
    return out


def flipped_bool_argument(node: cst.Call) -> list[cst.CSTNode]:
    """A flag argument inverted (``training=True``, ``use_bias``, ``from_logits``, ``staircase``)."""
    out: list[cst.CSTNode] = []
    for i in _keywords(node):
        value = _code(node.args[i].value)
        if value in ("True", "False"):
            out.append(_set_value(node, i, cst.Name("False" if value == "True" else "True")))
    return out


def changed_axis(node: cst.Call) -> list[cst.CSTNode]:
    """A reduction or concatenation over the wrong axis."""
    out: list[cst.CSTNode] = []
    for i in _keywords(node):
        if node.args[i].keyword.value in ("axis", "dim", "reduction_indices"):
            value = _code(node.args[i].value)
            other = "1" if value in ("0", "-2") else "0"
            out.append(_set_value(node, i, cst.Integer(other)))
    return out


UPDATES = ("assign", "assign_add", "assign_sub", "apply_gradients", "update_state")


def dropped_update(node: cst.SimpleStatementLine) -> list[cst.CSTNode]:
    """A state update (``v.assign_add``, ``apply_gradients``) lost as a statement."""
    out: list[cst.CSTNode] = []
    for i, stmt in enumerate(node.body):
        call = stmt.value if isinstance(stmt, cst.Expr) else None
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) \
                and call.func.attr.value in UPDATES:
            body = list(node.body)
            body[i] = cst.Pass(semicolon=stmt.semicolon)
            out.append(node.with_changes(body=body))
    return out


_KEPT_KEYWORDS = {"name", "activation", "dtype"}


def dropped_keyword(node: cst.Call) -> list[cst.CSTNode]:
    """A TF or Keras call's argument forgotten, so its default applies (``padding``, ``seed``)."""
    name = _call_name(node)
    if not name.startswith(("tf.", "keras.")) or name.startswith(OPTIMIZER_PREFIXES):
        return []
    return [_drop_arg(node, i) for i in _keywords(node)
            if node.args[i].keyword.value not in _KEPT_KEYWORDS
            and "regularizer" not in node.args[i].keyword.value]


FLIPPED = {cst.LessThan: cst.GreaterThan, cst.GreaterThan: cst.LessThan,
           cst.LessThanEqual: cst.GreaterThanEqual, cst.GreaterThanEqual: cst.LessThanEqual,
           cst.Equal: cst.NotEqual, cst.NotEqual: cst.Equal}


def flipped_comparison(node: cst.Comparison) -> list[cst.CSTNode]:
    """A comparison turned around (``logits > 0`` as ``< 0``, ``==`` as ``!=``)."""
    out = []
    for i, target in enumerate(node.comparisons):
        flip = FLIPPED.get(type(target.operator))
        if flip is not None:
            op = target.operator
            comparisons = list(node.comparisons)
            comparisons[i] = target.with_changes(operator=flip(
                whitespace_before=op.whitespace_before, whitespace_after=op.whitespace_after))
            out.append(node.with_changes(comparisons=comparisons))
    return out


KINDS: dict[str, Kind] = {kind.name: kind for kind in [
    Kind("swapped_call_args", "two positional arguments exchanged", cst.Call, swapped_call_args),
    Kind("swapped_keyword_values", "two keyword arguments' values exchanged", cst.Call, swapped_keyword_values),
    Kind("dropped_activation", "an activation left out", cst.Call, dropped_activation),
    Kind("nudged_constant", "a float constant off by 1e-3 relative", cst.Float, nudged_constant),
    Kind("optimizer_default", "an optimizer hyperparameter left to Keras's default", cst.Call, optimizer_default),
    Kind("reduction_swapped", "mean taken as sum or sum as mean", cst.Call, reduction_swapped),
    Kind("wrong_slice_bound", "a split or batch slice one element off", cst.Slice, wrong_slice_bound),
    Kind("dropped_stop_gradient", "tf.stop_gradient(x) as x", cst.Call, dropped_stop_gradient),
    Kind("wrong_var_list", "gradients or updates for a list missing a variable", cst.Call, wrong_var_list),
    Kind("eval_before_training", "the statement after a loop moved before it",
         (cst.Module, cst.IndentedBlock), eval_before_training),
    Kind("transposed_matmul", "a matmul operand transposed", (cst.Call, cst.BinaryOperation), transposed_matmul),
    Kind("sign_flip", "+ as -, - as +, a negation lost", (cst.BinaryOperation, cst.UnaryOperation), sign_flip),
    Kind("off_by_one_loop", "a loop one iteration long or short", (cst.Call, cst.Comparison), off_by_one_loop),
    Kind("dropped_regularization", "a regularization term or regularizer left out",
         (cst.BinaryOperation, cst.Call), dropped_regularization),
    Kind("swapped_dict_values", "two dict entries given each other's values", cst.Dict, swapped_dict_values),
    Kind("flipped_bool_argument", "a True/False argument inverted", cst.Call, flipped_bool_argument),
    Kind("changed_axis", "a reduction over the wrong axis", cst.Call, changed_axis),
    Kind("dropped_update", "a variable update statement lost", cst.SimpleStatementLine, dropped_update),
    Kind("dropped_keyword", "a TF call's keyword argument forgotten (its default applies)", cst.Call, dropped_keyword),
    Kind("flipped_comparison", "a comparison turned around", cst.Comparison, flipped_comparison),
]}


# --- applying ----------------------------------------------------------------------------


class _Sites(cst.CSTTransformer):
    """Counts the sites of one kind in tree order; replaces the ``target``-th, if asked."""

    def __init__(self, kind: Kind, target: int | None = None) -> None:
        super().__init__()
        self.kind, self.target, self.count = kind, target, 0

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        if not isinstance(original, self.kind.node):
            return updated
        original_code = _code(original)
        variants = [v for v in self.kind.variants(original) if _code(v) != original_code]
        first, self.count = self.count, self.count + len(variants)
        if self.target is not None and first <= self.target < self.count:
            return variants[self.target - first]
        return updated


@functools.lru_cache(maxsize=8)
def _parse(source: str) -> cst.Module:
    return cst.parse_module(source)


def count_sites(source: str, kind: str) -> int:
    sites = _Sites(KINDS[kind])
    _parse(source).visit(sites)
    return sites.count


def mutate(source: str, kind: str, index: int) -> str:
    """``source`` with the ``index``-th site of ``kind`` changed; it parses and differs."""
    sites = _Sites(KINDS[kind], index)
    module = _parse(source).visit(sites)
    if not 0 <= index < sites.count:
        raise IndexError(f"{kind} has {sites.count} sites, not {index + 1}")
    code = module.code
    ast.parse(code)
    return code


@dataclass(frozen=True)
class Mutant:
    program: str  # the golden's name
    kind: str
    index: int

    @property
    def id(self) -> str:
        return f"{self.program}:{self.kind}:{self.index}"


def all_mutants(sources: dict[str, str], kinds: list[str]) -> Iterator[Mutant]:
    for program, source in sorted(sources.items()):
        for kind in kinds:
            for index in range(count_sites(source, kind)):
                yield Mutant(program, kind, index)


def plan(sources: dict[str, str], kinds: list[str], seed: int, limit: int | None = None) -> list[Mutant]:
    """Every mutant, in an order the seed fixes that takes the kinds in turn.

    The first ``limit`` mutants then cover every kind about equally, each kind's drawn at
    random across the programs.
    """
    rng = random.Random(seed)
    by_kind: dict[str, list[Mutant]] = {kind: [] for kind in kinds}
    for mutant in all_mutants(sources, kinds):
        by_kind[mutant.kind].append(mutant)
    for mutants in by_kind.values():
        rng.shuffle(mutants)
    order: list[Mutant] = []
    depth = max((len(m) for m in by_kind.values()), default=0)
    for i in range(depth):
        order += [mutants[i] for mutants in by_kind.values() if i < len(mutants)]
    return order if limit is None else order[:limit]
