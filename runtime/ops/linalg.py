"""Matrix ops on the last two axes: diagonal part and trace (``tf.linalg.diag_part``/``trace``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops.registry import apply, register_gradient, register_simple
from runtime.tensor import Tensor

register_simple("MatrixDiagPart", lambda x: np.array(np.diagonal(x, axis1=-2, axis2=-1)))


@register_gradient("MatrixDiagPart")
def _diag_part_grad(op: Any, grad: Tensor) -> list:
    """Scatter the gradient back onto the diagonal of a zero matrix of the input's shape."""
    rows, cols = op.inputs[0].shape.as_list()[-2:]
    if rows is None or cols is None:
        raise Unsupported("gradient of tf.linalg.diag_part with unknown matrix dimensions")
    eye = convert_to_tensor(np.eye(rows, cols, dtype=op.inputs[0].dtype.np))
    return [M.multiply(A.expand_dims(grad, -1 if rows <= cols else -2), eye)]


def diag_part(input: Any, name: str = "diag_part", k: int = 0, padding_value: Any = 0,
              align: str = "RIGHT_LEFT") -> Tensor:
    """``tf.linalg.diag_part`` (main diagonal only)."""
    if k != 0:
        raise Unsupported("tf.linalg.diag_part with k != 0")
    return apply("MatrixDiagPart", [convert_to_tensor(input)], name=name)


def trace(x: Any, name: str | None = None) -> Tensor:
    """``tf.linalg.trace``: sum of the main diagonal of each innermost matrix."""
    return M.reduce_sum(diag_part(x), -1, name=name)
