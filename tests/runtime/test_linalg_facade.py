"""The linear algebra / search / image / metrics names the facade adds exist in TF 2.21 exactly
where the facade puts them (an engine name TF lacks would let a broken rewrite pass)."""

from __future__ import annotations

import pytest

from runtime.api import real_api
from runtime.api import tables as T
from runtime.ops import linalg as LA

PLACES = {
    "tf": T.SEARCH_TOP, "tf.linalg": T.LINALG, "tf.compat.v1.linalg": T.LINALG_V1, "tf.math": T.SEARCH_MATH,
    "tf.compat.v1.math": T.SEARCH_MATH_V1, "tf.nn": T.SEARCH_NN, "tf.compat.v1.nn": T.SEARCH_NN_V1,
    "tf.compat.v1": T.SEARCH_TOP_V1, "tf.image": T.IMAGE, "tf.compat.v1.image": T.IMAGE_V1,
}


@pytest.mark.parametrize("module", sorted(PLACES))
def test_names_exist_in_tf221(module: str) -> None:
    missing = sorted(set(PLACES[module]) - set(real_api()[module]["names"]))
    assert not missing, f"{module} has no {missing} in TF 2.21"


def test_v1_only_names_are_absent_from_the_tf2_face() -> None:
    v2 = T.build_modules("tf2")["tensorflow"]
    for name in ("matrix_inverse", "matrix_determinant", "diag", "segment_sum", "matrix_band_part"):
        with pytest.raises(AttributeError):
            getattr(v2, name)
    v1 = T.build_modules("tf1")["tensorflow"]
    # TF 1.x tf.diag is tensor_diag (rank k -> 2k), not the batched matrix diag of tf.linalg.diag
    assert v1.diag is LA.tensor_diag and v2.linalg.diag is LA.matrix_diag
