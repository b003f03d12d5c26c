"""Run-time checks: ``tf.Assert``, the ``tf.debugging.assert_*`` family and TF1's ``tf.Print``.

An assertion is an op with no outputs that raises ``InvalidArgumentError`` when it runs with a
false condition: in a graph it runs when fetched or as a control dependency (TF1), in a
``tf.function`` with the function's other stateful ops; eagerly it checks at once and returns
None. Inputs known at graph-construction time are checked there, as TF's ``check_ops`` does.
``tf.Print`` (TF1 only; ``tf.compat.v1.Print`` in TF 2.21) is an identity that writes its
message and data to stderr each time it runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from runtime.convert import convert_to_tensor
from runtime.errors import InvalidArgumentError
from runtime.graph import constant_value
from runtime.ops import math as M
from runtime.ops.registry import apply, not_differentiable, register, register_gradient
from runtime.tensor import EagerTensor, Tensor


def _summary(value: np.ndarray, summarize: int | None) -> str:
    """TF's SummarizeValue: the first `summarize` elements (3 by default), then `...`."""
    flat = np.asarray(value).reshape(-1)
    limit = 3 if summarize is None else summarize
    shown = flat if limit < 0 else flat[:limit]
    text = " ".join(str(v.decode() if isinstance(v, bytes) else v) for v in shown.tolist())
    return text + ("..." if limit >= 0 and flat.size > limit else "")


def _message(data: list[Any], summarize: int | None) -> str:
    return "\n".join(str(d) if isinstance(d, str) else _summary(d, summarize) for d in data)


def _assert_make(attrs: dict) -> Callable:
    texts, summarize = attrs["texts"], attrs["summarize"]

    def kernel(condition: np.ndarray, *values: np.ndarray) -> None:
        if not bool(np.all(condition)):
            found = iter(values)
            data = [t if t is not None else next(found) for t in texts]
            raise InvalidArgumentError(None, None, f"assertion failed: {_message(data, summarize)}")

    return kernel


register("Assert", _assert_make, shape_fn=lambda i, a: [], stateful=True, n_out=0)
not_differentiable("Assert")


def Assert(condition: Any, data: Any, summarize: int | None = None, name: str | None = None) -> Any:
    """``tf.debugging.Assert``: raises InvalidArgumentError when it runs with a false condition."""
    cond = convert_to_tensor(condition)
    texts: list[str | None] = []
    tensors: list[Tensor] = []
    for item in data:
        if isinstance(item, str):
            texts.append(item)
        else:
            texts.append(None)
            tensors.append(convert_to_tensor(item))
    attrs = {"texts": texts, "summarize": summarize}
    if isinstance(cond, EagerTensor) and all(isinstance(t, EagerTensor) for t in tensors):
        _assert_make(attrs)(cond._value, *[t._value for t in tensors])
        return None
    return apply("Assert", [cond, *tensors], attrs, name=name)


def _binary(symbol: str, test: Callable, static: Callable) -> tuple[Callable, Callable]:
    """The v1 form `(x, y, data, summarize, message, name)` and v2 form `(x, y, message,
    summarize, name)` of one elementwise comparison assertion."""

    def v1(
        x: Any,
        y: Any,
        data: Any = None,
        summarize: int | None = None,
        message: str | None = None,
        name: str | None = None,
    ) -> Any:
        x, y = convert_to_tensor(x), convert_to_tensor(y, dtype=convert_to_tensor(x).dtype)
        if data is None:
            data = [
                message or "",
                f"Condition x {symbol} y did not hold element-wise:",
                "x = ",
                x,
                "y = ",
                y,
            ]
        elif message is not None:
            data = [message, *data]
        xs, ys = constant_value(x), constant_value(y)
        if xs is not None and ys is not None and not np.all(static(xs, ys)):
            raise InvalidArgumentError(
                None,
                None,
                _message([d if isinstance(d, str) else constant_value(d) for d in data], summarize),
            )
        return Assert(M.reduce_all(test(x, y)), data, summarize=summarize, name=name)

    def v2(
        x: Any,
        y: Any,
        message: str | None = None,
        summarize: int | None = None,
        name: str | None = None,
    ) -> Any:
        return v1(x, y, summarize=summarize, message=message, name=name)

    return v1, v2


def _unary(binary: Callable, zero_first: bool, condition: str) -> tuple[Callable, Callable]:
    """`assert_positive(x)` and kin: a comparison with zero."""

    def v1(
        x: Any,
        data: Any = None,
        summarize: int | None = None,
        message: str | None = None,
        name: str | None = None,
    ) -> Any:
        x = convert_to_tensor(x)
        zero = np.zeros((), x.dtype.as_numpy_dtype)
        if data is None:
            data = [message or "", f"Condition {condition} did not hold element-wise:", "x = ", x]
        elif message is not None:
            data = [message, *data]
        args = (zero, x) if zero_first else (x, zero)
        return binary(*args, data=data, summarize=summarize, name=name)

    def v2(
        x: Any, message: str | None = None, summarize: int | None = None, name: str | None = None
    ) -> Any:
        return v1(x, summarize=summarize, message=message, name=name)

    return v1, v2


assert_equal, assert_equal_v2 = _binary("==", M.equal, np.equal)
assert_none_equal, assert_none_equal_v2 = _binary("!=", M.not_equal, np.not_equal)
assert_less, assert_less_v2 = _binary("<", M.less, np.less)
assert_less_equal, assert_less_equal_v2 = _binary("<=", M.less_equal, np.less_equal)
assert_greater, assert_greater_v2 = _binary(">", M.greater, np.greater)
assert_greater_equal, assert_greater_equal_v2 = _binary(">=", M.greater_equal, np.greater_equal)
assert_positive, assert_positive_v2 = _unary(assert_less, True, "x > 0")
assert_negative, assert_negative_v2 = _unary(assert_less, False, "x < 0")
assert_non_negative, assert_non_negative_v2 = _unary(assert_less_equal, True, "x >= 0")
assert_non_positive, assert_non_positive_v2 = _unary(assert_less_equal, False, "x <= 0")


def _print_make(attrs: dict) -> Callable:
    message, first_n, summarize = attrs["message"], attrs["first_n"], attrs["summarize"]
    runs = [0]

    def kernel(value: np.ndarray, *data: np.ndarray) -> np.ndarray:
        runs[0] += 1
        if first_n is None or first_n < 0 or runs[0] <= first_n:
            sys.stderr.write(message + "".join(f"[{_summary(d, summarize)}]" for d in data) + "\n")
        return value

    return kernel


register("Print", _print_make, shape_fn=lambda i, a: [(i[0].shape, i[0].dtype)], stateful=True)
register_gradient("Print")(lambda op, g: [g] + [None] * (len(op.inputs) - 1))


def Print(
    input_: Any,
    data: Any,
    message: str | None = None,
    first_n: int | None = None,
    summarize: int | None = None,
    name: str | None = None,
) -> Any:
    """TF1's ``tf.Print``: `input_` unchanged, printing `message` and `data` to stderr as it runs."""
    tensors = [convert_to_tensor(input_), *[convert_to_tensor(d) for d in data]]
    attrs = {"message": message or "", "first_n": first_n, "summarize": summarize}
    return apply("Print", tensors, attrs, name=name)


#: tf.debugging (TF 2.21) and its TF1 names (tf.compat.v1.debugging and tf.assert_* in TF1).
DEBUGGING_V2 = {
    "Assert": Assert,
    "assert_equal": assert_equal_v2,
    "assert_none_equal": assert_none_equal_v2,
    "assert_less": assert_less_v2,
    "assert_less_equal": assert_less_equal_v2,
    "assert_greater": assert_greater_v2,
    "assert_greater_equal": assert_greater_equal_v2,
    "assert_positive": assert_positive_v2,
    "assert_negative": assert_negative_v2,
    "assert_non_negative": assert_non_negative_v2,
    "assert_non_positive": assert_non_positive_v2,
}
DEBUGGING_V1 = {
    "Assert": Assert,
    "assert_equal": assert_equal,
    "assert_none_equal": assert_none_equal,
    "assert_less": assert_less,
    "assert_less_equal": assert_less_equal,
    "assert_greater": assert_greater,
    "assert_greater_equal": assert_greater_equal,
    "assert_positive": assert_positive,
    "assert_negative": assert_negative,
    "assert_non_negative": assert_non_negative,
    "assert_non_positive": assert_non_positive,
}
#: tf.* names: TF 2.21 keeps Assert, assert_equal/greater/less at top level (v2 forms).
TOP_V2 = {k: DEBUGGING_V2[k] for k in ("Assert", "assert_equal", "assert_greater", "assert_less")}
TOP_V1 = DEBUGGING_V1 | {"Print": Print}
