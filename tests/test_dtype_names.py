"""dtype names resolve as TF resolves them, not as NumPy does."""

from __future__ import annotations

import pytest

from runtime import dtypes


@pytest.mark.parametrize(("name", "expected"), [
    ("float", "float32"), ("double", "float64"), ("half", "float16"), ("bool", "bool"),
    ("float32", "float32"), ("uint8", "uint8"),
])
def test_tf_dtype_names(name: str, expected: str) -> None:
    assert dtypes.as_dtype(name).name == expected


@pytest.mark.parametrize("name", ["int", "long", "complex"])
def test_names_tf_refuses(name: str) -> None:
    with pytest.raises(TypeError, match="Cannot convert"):
        dtypes.as_dtype(name)
