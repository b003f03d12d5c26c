"""Printed output as tokens: what is a number, what is a word, and the tolerance."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime.observables import Tolerance
from runtime.printed_output import tokenize


def kinds(text: str) -> list[tuple[str, float | None]]:
    return [(t.text, t.value) for t in tokenize(text)]


def numbers(text: str) -> list[float]:
    return [t.value for t in tokenize(text) if t.value is not None]


def test_identifiers_with_digits_are_words() -> None:
    for word in ("float32", "int64", "dense_1", "Mul_1:0", "a:0", "dense1/weight:0", "conv2d"):
        assert numbers(word) == [], word
    assert [t.text for t in tokenize("dense1/weight:0")] == ["dense1", "/", "weight:0"]
    assert kinds("Mul_1:0") == [("Mul_1:0", None)]


def test_numpy_scalar_repr_exposes_its_number() -> None:
    assert kinds("[np.float32(0.97637), np.float32(0.057565063)]") == [
        ("[", None),
        ("np.float32", None),
        ("(", None),
        ("0.97637", 0.97637),
        (")", None),
        (",", None),
        ("np.float32", None),
        ("(", None),
        ("0.057565063", 0.057565063),
        (")", None),
        ("]", None),
    ]


def test_arrays_exponents_and_signs() -> None:
    assert numbers("[0.1 0.2]") == [0.1, 0.2]
    assert numbers("[[-0.5  3.  ]\n [ 1.e-05 2e+03]]") == [-0.5, 3.0, 1e-05, 2000.0]
    assert numbers("step 10: loss=0.25") == [10.0, 0.25]
    # a minus right after a value is an operator, not a sign
    assert kinds("2-1") == [("2", 2.0), ("-", None), ("1", 1.0)]


def test_nan_and_inf_are_numbers_but_not_inside_words() -> None:
    values = numbers("nan -inf inf NaN")
    assert math.isnan(values[0]) and values[1] == -math.inf and values[2] == math.inf
    assert math.isnan(values[3])
    assert numbers("information nancy infinite_loop") == []


def test_tensor_index_does_not_swallow_a_float() -> None:
    assert kinds("loss:0.5") == [("loss", None), (":", None), ("0.5", 0.5)]


def test_whitespace_is_not_a_token() -> None:
    assert [t.text for t in tokenize("[0.1        0.2]")] == [t.text for t in tokenize("[0.1 0.2]")]


@settings(max_examples=60)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_float_repr_is_one_number(value: float) -> None:
    assert numbers(repr(value)) == [value]


@settings(max_examples=60)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_any_float32_print_is_one_number(value: float) -> None:
    printed = str(np.float32(value))
    assert numbers(printed) == [float(printed)]
    assert numbers(repr(np.float32(value))) == [float(printed)]


@settings(max_examples=60)
@given(st.from_regex(r"[a-z_][a-z_]*[0-9]+(_[0-9]+)?", fullmatch=True))
def test_any_identifier_ending_in_digits_is_a_word(word: str) -> None:
    assert kinds(word) == [(word, None)]


def test_tolerance_is_relative_to_the_original() -> None:
    tol = Tolerance(rtol=1e-4, atol=1e-6)
    assert tol.close(np.float64(1e-6), np.float64(0.0))
    assert not tol.close(np.float64(1.1e-6), np.float64(0.0))
    assert tol.close(np.float64(100.0099), np.float64(100.0))
    assert not tol.close(np.float64(100.0102), np.float64(100.0))
    # the original is the reference: 0 against 1e-5 fails, 1e-5 against 0 fails too
    assert not tol.close(np.float64(0.0), np.float64(1e-5))


def test_tolerance_on_nan_and_inf() -> None:
    tol = Tolerance()
    assert tol.close(np.float64("nan"), np.float64("nan"))
    assert not tol.close(np.float64("nan"), np.float64(1.0))
    assert tol.close(np.float64("inf"), np.float64("inf"))
    assert not tol.close(np.float64("-inf"), np.float64("inf"))
    assert not tol.close(np.float64(1.0), np.float64("inf"))


def test_numbers_in_a_printed_array_share_the_arrays_scale() -> None:
    tokens = [
        t for t in tokenize("loss 0.5 [[1.5 -0.002]\n [0.25 nan]] [3]") if t.value is not None
    ]
    assert [t.scale for t in tokens] == [None, 1.5, 1.5, 1.5, 1.5, 3.0]


def test_scaled_tolerance_for_tensor_elements() -> None:
    tol = Tolerance(rtol=1e-4, atol=1e-6)
    # 3e-6 off an element of 0.016 is 2e-4 of it, but 3e-6 of a tensor whose scale is 1
    assert not tol.close(np.float64(0.016003), np.float64(0.016))
    assert tol.close(np.float64(0.016003), np.float64(0.016), scale=1.0)
    assert not tol.close(np.float64(0.0163), np.float64(0.016), scale=1.0)
    assert tol.close(np.float64("inf"), np.float64("inf"), scale=1.0)
    assert not tol.close(np.float64(1.0), np.float64("nan"), scale=1.0)


def test_a_memory_address_is_one_word_whatever_its_digits() -> None:
    # A new address every run: two runs printing the same object differ only there.
    old = tokenize("<Iterator object at 0x7ff3d9a27210> 3")
    new = tokenize("<Iterator object at 0x7fc2d2353b10> 3")
    assert [t.text for t in old] == [t.text for t in new]
    assert [t.value for t in old if t.value is not None] == [3.0]
    # a hex value printed by the program is a value, not an address
    assert "0x<address>" not in [t.text for t in tokenize("0x10 0xff digest 0x7ff3d9a27210")]


def test_the_items_of_a_printed_python_list_keep_their_own_scale() -> None:
    # Separate metrics printed in one list: a small one is not judged against a large one.
    items = tokenize("[0.31, 6.3e-08, np.float32(2.5)]")
    assert [t.scale for t in items if t.value is not None] == [None, None, None]
    # A NumPy array printed as such, or as its repr, is one tensor; arrays inside a list share
    # a scale with each other only.
    assert {t.scale for t in tokenize("[0.31 6.3e-08]") if t.value is not None} == {0.31}
    assert {t.scale for t in tokenize("array([0.31, 6.3e-08])") if t.value is not None} == {0.31}
    mixed = tokenize("[array([1., 2.], dtype=float32), 0.5]")
    assert [t.scale for t in mixed if t.value is not None] == [2.0, 2.0, None]
