"""``Dataset.shuffle``: TF's buffer algorithm on NumPy's RNG, so element order is deterministic for a
seed but is not TF's (Philox) order; the recorded conformance programs therefore avoid it. These
check the properties that do hold in TF: a permutation, reshuffled each epoch unless told not to,
and a buffer of one keeps the order."""

from __future__ import annotations

from runtime.data import DatasetV2


def _epochs(ds: DatasetV2, n: int) -> list[list[int]]:
    it = iter(ds.repeat(n))
    values = [int(x) for x in it]
    size = len(values) // n
    return [values[i * size:(i + 1) * size] for i in range(n)]


def test_shuffle_is_a_seeded_permutation_reshuffled_each_epoch() -> None:
    first, second = _epochs(DatasetV2.range(20).shuffle(8, seed=5), 2)
    assert sorted(first) == sorted(second) == list(range(20))
    assert first != list(range(20)) and first != second
    again, _ = _epochs(DatasetV2.range(20).shuffle(8, seed=5), 2)
    assert again == first


def test_shuffle_without_reshuffling_and_with_a_buffer_of_one() -> None:
    first, second = _epochs(DatasetV2.range(10).shuffle(4, seed=1, reshuffle_each_iteration=False), 2)
    assert first == second and sorted(first) == list(range(10))
    assert _epochs(DatasetV2.range(6).shuffle(1, seed=3), 1) == [list(range(6))]


def test_shuffle_buffer_bounds_how_far_an_element_moves_forward() -> None:
    order = _epochs(DatasetV2.range(30).shuffle(3, seed=9), 1)[0]
    assert all(order.index(v) >= v - 2 for v in range(30))
