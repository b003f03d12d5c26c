"""Linear algebra: eye, diagonals, band parts, inverse/determinant/solve/Cholesky, norms,
tensordot and einsum, with gradients written in registered ops (so they nest to any order)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from runtime import dtypes
from runtime.api_scopes import name_scope
from runtime.convert import binary_operands, convert_to_tensor
from runtime.errors import Unsupported, invalid_argument
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops.registry import apply, register, register_gradient, register_simple
from runtime.shapes import TensorShape
from runtime.tensor import Tensor

_FLOATS = "double, float, half, complex64, complex128"
_DET_FLOATS = "half, float, double, complex64, complex128"


def attr_error(dtype: dtypes.DType, allowed: str, op_type: str) -> Exception:
    """The error TF raises when an op has no kernel for ``dtype``."""
    return invalid_argument(
        f"Value for attr 'T' of {dtypes.kernel_name(dtype)} is not in the list of allowed "
        f"values: {allowed}\n\t; NodeDef: {{{{node {op_type}}}}}; Op<name={op_type}> [Op:{op_type}]")


def _require_float(x: Tensor, op_type: str, allowed: str = _FLOATS) -> None:
    """The linalg kernels exist for floating types only; TF rejects others when building the op."""
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise attr_error(x.dtype, allowed, op_type)


def _require_square(x: np.ndarray, op_type: str) -> None:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise invalid_argument(f"Input matrix must be square. [Op:{op_type}]")


def _same_spec(inputs: list, attrs: dict) -> list:
    """Shape rule for ops whose output has their first input's shape and dtype. Probing would not
    do: the probe values (all ones) are singular matrices, which these kernels reject."""
    return [(inputs[0].shape, inputs[0].dtype)]


# --- eye / diagonals / band part / transpose ---------------------------------------------------------


def eye(num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = dtypes.float32,
        name: str | None = None) -> Tensor:
    """``tf.eye``: a constant identity (batch of identities)."""
    rows = int(A._concrete(num_rows))
    cols = rows if num_columns is None else int(A._concrete(num_columns))
    batch = [] if batch_shape is None else [int(d) for d in np.asarray(A._concrete(batch_shape)).ravel()]
    dt = dtypes.as_dtype(dtype)
    value = np.broadcast_to(np.eye(rows, cols, dtype=dt.np), (*batch, rows, cols)).copy()
    from runtime.convert import constant

    return constant(value, dt, name=name or "eye")


def _matrix_diag_kernel(d: np.ndarray) -> np.ndarray:
    n = d.shape[-1]
    out = np.zeros((*d.shape, n), dtype=d.dtype)
    idx = np.arange(n)
    out[..., idx, idx] = d
    return out


def _matrix_diag_part_kernel(x: np.ndarray) -> np.ndarray:
    return np.diagonal(x, axis1=-2, axis2=-1).copy()


def _matrix_set_diag_kernel(x: np.ndarray, d: np.ndarray) -> np.ndarray:
    out = x.copy()
    idx = np.arange(min(x.shape[-2:]))
    out[..., idx, idx] = d
    return out


register_simple("MatrixDiag", _matrix_diag_kernel)
register_simple("MatrixDiagPart", _matrix_diag_part_kernel)
register_simple("MatrixSetDiag", _matrix_set_diag_kernel)
register_gradient("MatrixDiag")(lambda op, g: [apply("MatrixDiagPart", [g])])


@register_gradient("MatrixDiagPart")
def _matrix_diag_part_grad(op: Any, grad: Tensor) -> list:
    x = op.inputs[0]
    return [apply("MatrixSetDiag", [A.zeros_like(x), grad])]


@register_gradient("MatrixSetDiag")
def _matrix_set_diag_grad(op: Any, grad: Tensor) -> list:
    return [apply("MatrixSetDiag", [grad, A.zeros_like(op.inputs[1])]), apply("MatrixDiagPart", [grad])]


def _k_zero(k: Any, what: str) -> None:
    if k != 0:
        raise Unsupported(f"{what} with k != 0")


def matrix_diag(diagonal: Any, name: str = "diag", k: Any = 0, num_rows: Any = -1, num_cols: Any = -1,
                padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``tf.linalg.diag``: batched square matrices with ``diagonal`` on the main diagonal."""
    _k_zero(k, "tf.linalg.diag")
    if num_rows != -1 or num_cols != -1 or padding_value != 0:
        raise Unsupported("tf.linalg.diag with num_rows/num_cols/padding_value")
    return apply("MatrixDiag", [convert_to_tensor(diagonal)], name=name)


def matrix_diag_part(input: Any, name: str = "diag_part", k: Any = 0, padding_value: Any = 0,
                     align: str = "RIGHT_LEFT") -> Tensor:
    _k_zero(k, "tf.linalg.diag_part")
    return apply("MatrixDiagPart", [convert_to_tensor(input)], name=name)


def matrix_set_diag(input: Any, diagonal: Any, name: str = "set_diag", k: Any = 0,
                    align: str = "RIGHT_LEFT") -> Tensor:
    _k_zero(k, "tf.linalg.set_diag")
    x = convert_to_tensor(input)
    return apply("MatrixSetDiag", [x, convert_to_tensor(diagonal, dtype=x.dtype)], name=name)


def _tensor_diag_kernel(d: np.ndarray) -> np.ndarray:
    return np.diag(d.ravel()).reshape(d.shape + d.shape)


def _tensor_diag_part_kernel(x: np.ndarray) -> np.ndarray:
    half = x.shape[: x.ndim // 2]
    n = int(np.prod(half))
    return np.diagonal(x.reshape(n, n)).reshape(half).copy()


register_simple("Diag", _tensor_diag_kernel)
register_simple("DiagPart", _tensor_diag_part_kernel)
register_gradient("Diag")(lambda op, g: [apply("DiagPart", [g])])
register_gradient("DiagPart")(lambda op, g: [apply("Diag", [g])])


def tensor_diag(diagonal: Any, name: str | None = None) -> Tensor:
    """TF 1.x ``tf.diag``: rank-k input to a rank-2k tensor (not batched, unlike linalg.diag)."""
    return apply("Diag", [convert_to_tensor(diagonal)], name=name)


def tensor_diag_part(input: Any, name: str | None = None) -> Tensor:
    return apply("DiagPart", [convert_to_tensor(input)], name=name)


def _band_kernel(x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    m, n = x.shape[-2:]
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    lo, up = int(lower), int(upper)
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return np.where(keep, x, np.zeros((), x.dtype))


register_simple("MatrixBandPart", _band_kernel)


@register_gradient("MatrixBandPart")
def _band_grad(op: Any, grad: Tensor) -> list:
    return [apply("MatrixBandPart", [grad, op.inputs[1], op.inputs[2]]), None, None]


def band_part(input: Any, num_lower: Any, num_upper: Any, name: str | None = None) -> Tensor:
    return apply("MatrixBandPart", [convert_to_tensor(input), convert_to_tensor(num_lower, dtype_hint=dtypes.int64),
                                    convert_to_tensor(num_upper, dtype_hint=dtypes.int64)], name=name)


register_simple("SwapLastAxes", lambda x: np.swapaxes(x, -1, -2))
register_gradient("SwapLastAxes")(lambda op, g: [apply("SwapLastAxes", [g])])


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """Swap the last two axes (batched)."""
    x = convert_to_tensor(a)
    rank = x.shape.rank
    if rank is not None and rank < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {x} "
                         f"with shape: {x.shape}")
    return apply("SwapLastAxes", [x], name=name)


def adjoint(matrix: Any, name: str | None = None) -> Tensor:
    return matrix_transpose(matrix, name=name or "adjoint")


# --- inverse / determinant / solve / cholesky ------------------------------------------------------------


def _inverse_make(attrs: dict) -> Any:
    adj = attrs["adjoint"]

    def kernel(x: np.ndarray) -> np.ndarray:
        _require_square(x, "MatrixInverse")
        if adj:
            x = np.swapaxes(x, -1, -2)
        try:
            return np.linalg.inv(x).astype(x.dtype, copy=False)
        except np.linalg.LinAlgError:
            raise invalid_argument("Input is not invertible. [Op:MatrixInverse]") from None

    return kernel


register("MatrixInverse", _inverse_make, shape_fn=_same_spec)


@register_gradient("MatrixInverse")
def _inverse_grad(op: Any, grad: Tensor) -> list:
    ainv = op.outputs[0]
    if op.attrs["adjoint"]:
        return [M.negative(M.matmul(ainv, M.matmul(grad, ainv, adjoint_a=True)))]
    return [M.negative(M.matmul(ainv, M.matmul(grad, ainv, adjoint_b=True), adjoint_a=True))]


def inv(input: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    _require_float(x, "MatrixInverse")
    return apply("MatrixInverse", [x], {"adjoint": bool(adjoint)}, name=name)


def _det_kernel(x: np.ndarray) -> np.ndarray:
    _require_square(x, "MatrixDeterminant")
    return np.asarray(np.linalg.det(x), dtype=x.dtype)


register_simple("MatrixDeterminant", _det_kernel)


@register_gradient("MatrixDeterminant")
def _det_grad(op: Any, grad: Tensor) -> list:
    scale = A.expand_dims(A.expand_dims(M.multiply(grad, op.outputs[0]), -1), -1)
    return [M.multiply(scale, inv(op.inputs[0], adjoint=True))]


def det(input: Any, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    _require_float(x, "MatrixDeterminant", _DET_FLOATS)
    return apply("MatrixDeterminant", [x], name=name)


def _solve_make(attrs: dict) -> Any:
    adj = attrs["adjoint"]

    def kernel(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        _require_square(a, "MatrixSolve")
        if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
            raise invalid_argument("Input matrix and rhs are incompatible. [Op:MatrixSolve]")
        if adj:
            a = np.swapaxes(a, -1, -2)
        try:
            return np.linalg.solve(a, b).astype(b.dtype, copy=False)
        except np.linalg.LinAlgError:
            raise invalid_argument("Input matrix is not invertible. [Op:MatrixSolve]") from None

    return kernel


def _solve_spec(inputs: list, attrs: dict) -> list:
    a, b = inputs[0].shape, inputs[1].shape
    if a.rank is None or b.rank is None:
        return [(TensorShape(None), inputs[1].dtype)]
    return [(TensorShape(b.as_list()[:-2] + [a.as_list()[-1], b.as_list()[-1]]), inputs[1].dtype)]


register("MatrixSolve", _solve_make, shape_fn=_solve_spec)


@register_gradient("MatrixSolve")
def _solve_grad(op: Any, grad: Tensor) -> list:
    a, _ = op.inputs
    x = op.outputs[0]
    adj = op.attrs["adjoint"]
    grad_b = apply("MatrixSolve", [a, grad], {"adjoint": not adj})
    if adj:
        grad_a = M.negative(M.matmul(x, grad_b, adjoint_b=True))
    else:
        grad_a = M.negative(M.matmul(grad_b, x, adjoint_b=True))
    return [grad_a, grad_b]


def solve(matrix: Any, rhs: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    a, b = binary_operands("MatrixSolve", matrix, rhs)
    _require_float(a, "MatrixSolve")
    return apply("MatrixSolve", [a, b], {"adjoint": bool(adjoint)}, name=name)


def _cholesky_kernel(x: np.ndarray) -> np.ndarray:
    _require_square(x, "Cholesky")
    try:
        return np.linalg.cholesky(x).astype(x.dtype, copy=False)
    except np.linalg.LinAlgError:
        # TF 2.21's CPU kernel does not raise: it returns NaNs where the factorization failed.
        return np.tril(np.full(x.shape, np.nan, dtype=x.dtype))


register_simple("Cholesky", _cholesky_kernel, shape_fn=_same_spec)


@register_gradient("Cholesky")
def _cholesky_grad(op: Any, grad: Tensor) -> list:
    """TF's formula (Murray 2016): Phi(L^T G) with half the diagonal, pulled back through L^-1."""
    chol = op.outputs[0]
    chol_inv = inv(chol)
    middle = M.matmul(chol, grad, adjoint_a=True)
    middle = M.subtract(band_part(middle, -1, 0), M.multiply(0.5, matrix_diag(matrix_diag_part(middle))))
    grad_a = M.matmul(M.matmul(chol_inv, middle, adjoint_a=True), chol_inv)
    return [M.multiply(0.5, M.add(grad_a, matrix_transpose(grad_a)))]


def cholesky(input: Any, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    _require_float(x, "Cholesky")
    return apply("Cholesky", [x], name=name)


def lstsq(matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True, name: str | None = None) -> Tensor:
    """``tf.linalg.lstsq`` in TF's fast mode: the regularized normal equations (A^T A + l2 I) x = A^T b,
    or x = A^T (A A^T + l2 I)^-1 b when A has fewer rows than columns."""
    if not fast:
        raise Unsupported("tf.linalg.lstsq with fast=False")
    a, b = binary_operands("MatMul", matrix, rhs)
    rows, cols = a.shape.as_list()[-2:] if a.shape.rank else (None, None)
    if rows is None or cols is None:
        raise Unsupported("tf.linalg.lstsq of a matrix of unknown size")
    over = rows >= cols
    gram = M.matmul(a, a, adjoint_a=over, adjoint_b=not over)
    eye_ = np.eye(cols if over else rows, dtype=a.dtype.np)
    gram = M.add(gram, M.multiply(M.cast(l2_regularizer, a.dtype), eye_))
    if over:
        return solve(gram, M.matmul(a, b, adjoint_a=True), name=name)
    return M.matmul(a, solve(gram, b), adjoint_a=True, name=name)


# --- norms ----------------------------------------------------------------------------------------------------

_VECTOR_ORDS = ("euclidean", 1, 2, np.inf)
_MATRIX_ORDS = ("euclidean", "fro", 1, 2, np.inf)


def _ord_name(o: Any) -> str:
    return "inf" if o == np.inf else str(o)


def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None, name: str | None = None,
         keep_dims: Any = None) -> Tensor:
    """``tf.norm``: vector norms (1, 2/euclidean, inf) and matrix norms (fro/euclidean, 1, inf)."""
    with name_scope(name, "norm"):
        return _norm(convert_to_tensor(tensor), ord, axis, bool(keepdims if keepdims is not None else keep_dims))


def _norm(x: Tensor, ord: Any, axis: Any, keep: bool) -> Tensor:
    if isinstance(axis, Tensor):
        axis = A._concrete(axis)
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    is_matrix = isinstance(axis, (list, tuple)) and len(axis) == 2
    if isinstance(axis, (list, tuple)) and not is_matrix:
        if len(axis) != 1:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        axis = axis[0]
    supported = _MATRIX_ORDS if is_matrix else _VECTOR_ORDS
    if not any(ord == s and type(ord) is not bool for s in supported):
        kind = "matrix norm in ['euclidean', 'fro', 1, 2, inf]" if is_matrix else "vector norm"
        raise ValueError(f"'ord' must be a supported {kind}, got {_ord_name(ord)}")
    out = _matrix_norm(x, ord, list(axis)) if is_matrix else _vector_norm(x, ord, axis)
    if keep:
        return out
    squeeze_axes = None if axis is None else ([a for a in axis] if is_matrix else [axis])
    return A.squeeze(out, squeeze_axes) if squeeze_axes is not None else A.reshape(out, [])


def norm_v2(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None,
            name: str | None = None) -> Tensor:
    return norm(tensor, ord, axis, keepdims, name)


def _euclidean(x: Tensor, axis: Any) -> Tensor:
    _require_float(x, "Sqrt", "bfloat16, half, float, double, complex64, complex128")
    return M.sqrt(M.reduce_sum(M.multiply(x, x), axis, keepdims=True))


def _vector_norm(x: Tensor, ord: Any, axis: Any) -> Tensor:
    if ord in ("euclidean", 2):
        return _euclidean(x, axis)
    if ord == 1:
        return M.reduce_sum(M.abs(x), axis, keepdims=True)
    return M.reduce_max(M.abs(x), axis, keepdims=True)


def _matrix_norm(x: Tensor, ord: Any, axis: list) -> Tensor:
    rank = x.shape.rank
    axis = [a % rank for a in axis] if rank is not None else axis
    if ord in ("euclidean", "fro"):
        return _euclidean(x, axis)
    if ord == 2:
        raise Unsupported("tf.norm with ord=2 over a matrix (spectral norm)")
    # ord=1: max column sum (sum over rows axis[0]); ord=inf: max row sum.
    inner, outer = (axis[0], axis[1]) if ord == 1 else (axis[1], axis[0])
    return M.reduce_max(M.reduce_sum(M.abs(x), inner, keepdims=True), outer, keepdims=True)


# --- tensordot / einsum ---------------------------------------------------------------------------------------


def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Tensor:
    """Contract ``axes`` of ``a`` with ``axes`` of ``b`` by transposes, reshapes and one matmul (as TF)."""
    a, b = binary_operands("MatMul", a, b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None:
        raise Unsupported("tf.tensordot of tensors of unknown rank")
    axes = A._concrete(axes)
    if isinstance(axes, (int, np.integer)) or np.ndim(axes) == 0:
        n = int(axes)
        if n < 0:
            raise ValueError(f"'axes' must be at least 0, got {n}")
        if n > ra or n > rb:
            raise ValueError(f"'axes' must not be larger than the number of dimensions of tensor {a if n > ra else b}.")
        a_axes, b_axes = list(range(ra - n, ra)), list(range(n))
    else:
        a_axes, b_axes = ([int(v) % r for v in np.atleast_1d(np.asarray(ax))] for ax, r in zip(axes, (ra, rb)))
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(a_axes)} != {len(b_axes)}.")
    a_free = [i for i in range(ra) if i not in a_axes]
    b_free = [i for i in range(rb) if i not in b_axes]
    sa, sb = a.shape.as_list(), b.shape.as_list()
    if any(sa[i] is None for i in a_axes + a_free) or any(sb[i] is None for i in b_axes + b_free):
        ta, tb = A.shape(a), A.shape(b)
        free_dims = A.concat([A.gather(ta, a_free), A.gather(tb, b_free)], 0) if a_free or b_free else []
    else:
        free_dims = [sa[i] for i in a_free] + [sb[i] for i in b_free]
    ka = int(np.prod([sa[i] for i in a_axes])) if all(sa[i] is not None for i in a_axes) else -1
    kb = int(np.prod([sb[i] for i in b_axes])) if all(sb[i] is not None for i in b_axes) else -1
    a2 = A.reshape(A.transpose(a, a_free + a_axes), [-1, ka])
    b2 = A.reshape(A.transpose(b, b_axes + b_free), [kb, -1])
    return A.reshape(M.matmul(a2, b2), free_dims, name=name)


def _einsum_make(attrs: dict) -> Any:
    eq = attrs["equation"]

    ins, _ = _split_equation(eq)

    def kernel(*xs: np.ndarray) -> np.ndarray:
        _check_dims(ins, xs)
        return np.asarray(np.einsum(eq, *xs), dtype=xs[0].dtype)

    return kernel


register("Einsum", _einsum_make)


def _check_dims(ins: list[str], xs: tuple) -> None:
    """Every subscript names one size across operands (TF's message on a mismatch)."""
    seen: dict[str, int] = {}
    for sub, x in zip(ins, xs):
        toks = _tokens(sub)
        if "..." in toks:
            cut = toks.index("...")
            axes = list(range(cut)) + list(range(x.ndim - (len(toks) - cut - 1), x.ndim))
            toks = toks[:cut] + toks[cut + 1:]
        else:
            axes = list(range(len(toks)))
        for label, ax in zip(toks, axes):
            want = seen.setdefault(label, x.shape[ax])
            if want != x.shape[ax]:
                shape = ",".join(map(str, x.shape))
                raise invalid_argument(f"Expected dimension {want} at axis {ax} of the input shaped [{shape}] but "
                                       f"got dimension {x.shape[ax]} [Op:Einsum]")


def _split_equation(eq: str) -> tuple[list[str], str]:
    lhs, _, out = eq.partition("->")
    return lhs.split(","), out


@register_gradient("Einsum")
def _einsum_grad(op: Any, grad: Tensor) -> list:
    """d/dx_i of an einsum is an einsum of the output gradient with the other operands; subscripts
    summed only inside x_i come back by broadcasting, and a subscript repeated inside x_i (a
    diagonal) comes back on the diagonal."""
    ins, out = _split_equation(op.attrs["equation"])
    return [_einsum_operand_grad(op, grad, ins, out, i) for i in range(len(ins))]


def _einsum_operand_grad(op: Any, grad: Tensor, ins: list[str], out: str, i: int) -> Tensor:
    x, sub = op.inputs[i], ins[i]
    toks = _tokens(sub)
    unique = list(dict.fromkeys(toks))
    if len(unique) != len(toks) and ("..." in toks or not x.shape.is_fully_defined()):
        raise Unsupported("the gradient of tf.einsum with a repeated subscript next to '...' or unknown sizes")
    others = [s for j, s in enumerate(ins) if j != i]
    present = set(out) | set("".join(others))
    kept = "".join(c for c in unique if c == "..." or c in present)
    # NumPy keeps broadcast (ellipsis) axes in the output; sum them away if x has none.
    spill = "..." in out and "..." not in sub
    g = _einsum([grad] + [t for j, t in enumerate(op.inputs) if j != i],
                ",".join([out] + others) + "->" + ("..." if spill else "") + kept)
    if spill:
        n_ell = op.outputs[0].shape.rank - (len(_tokens(out)) - 1)
        g = M.reduce_sum(g, list(range(n_ell))) if n_ell else g
    if kept != "".join(unique):
        for pos, c in enumerate(unique):
            if c not in kept:
                g = A.expand_dims(g, pos)
        sizes = dict(zip(toks, x.shape.as_list())) if "..." not in toks else None
        g = A.broadcast_to(g, [sizes[c] for c in unique] if sizes else A.shape(x))
    if len(unique) != len(toks):
        g = _embed_diagonals(g, unique, toks, x.shape.as_list())
    return M.sum_to_shape(g, x) if "..." in sub else g


def _embed_diagonals(g: Tensor, unique: list[str], toks: list[str], dims: list) -> Tensor:
    """Put ``g`` (one axis per distinct subscript) on the diagonals of x's shape: each repeat of a
    subscript gets a fresh letter tied to the first by an identity matrix."""
    free = iter(c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in toks)
    seen: set[str] = set()
    renamed, eyes, subs = [], [], []
    for c, n in zip(toks, dims):
        if c in seen:
            f = next(free)
            renamed.append(f)
            subs.append(c + f)
            eyes.append(np.eye(n, dtype=g.dtype.np))
        else:
            seen.add(c)
            renamed.append(c)
    return _einsum([g, *[convert_to_tensor(e) for e in eyes]], ",".join(["".join(unique), *subs]) + "->"
                   + "".join(renamed))


def _tokens(sub: str) -> list[str]:
    return re.findall(r"\.\.\.|[A-Za-z]", sub)


def _einsum(inputs: list, equation: str) -> Tensor:
    return apply("Einsum", inputs, {"equation": equation})


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """``tf.einsum``: explicit or implicit (no ``->``) output, ``...`` allowed."""
    eq = equation.replace(" ", "")
    ins = eq.split("->")[0].split(",")
    if len(ins) != len(inputs):
        raise ValueError(f'Got {len(inputs)} inputs for equation "{equation}", expecting {len(ins)}')
    if "->" not in eq:
        letters = "".join(ins).replace("...", "")
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
        eq = eq + "->" + ("..." if "..." in eq else "") + out
    ts = [convert_to_tensor(t) for t in inputs]
    if any(t.dtype != ts[0].dtype for t in ts):
        ts = [ts[0]] + [binary_operands("Einsum", ts[0], t)[1] for t in ts[1:]]
    with name_scope(kwargs.get("name"), "einsum"):
        return apply("Einsum", ts, {"equation": eq})


def trace(x: Any, name: str | None = None) -> Tensor:
    """``tf.linalg.trace``: sum of the main diagonal of each innermost matrix."""
    return M.reduce_sum(matrix_diag_part(x), -1, name=name)
