"""The linear algebra / search / image / metrics names the facade adds exist in TF 2.21 exactly
where the facade puts them (an engine name TF lacks would let a broken rewrite pass)."""

from __future__ import annotations

import pytest

from runtime.api import real_api
from runtime.api import tables as T
from runtime.importer import detect_face
from runtime.ops import linalg as LA

PLACES = {
    "tf": T.SEARCH_TOP, "tf.linalg": T.LINALG, "tf.compat.v1.linalg": T.LINALG_V1, "tf.math": T.SEARCH_MATH,
    "tf.compat.v1.math": T.SEARCH_MATH_V1, "tf.nn": T.SEARCH_NN, "tf.compat.v1.nn": T.SEARCH_NN_V1,
    "tf.compat.v1": T.SEARCH_TOP_V1, "tf.image": T.IMAGE, "tf.compat.v1.image": T.IMAGE_V1,
    "tf.compat.v1.metrics": T.METRICS_V1,
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


@pytest.mark.parametrize(("source", "face"), [
    ("import tensorflow as tf\nprint(tf.matrix_inverse([[2.]]))\n", "tf1"),
    ("import tensorflow as tf\nprint(tf.segment_sum([1.], [0]))\n", "tf1"),
    ("import tensorflow as tf\nprint(tf.linalg.inv([[2.]]), tf.math.segment_sum([1.], [0]))\n", "tf2"),
])
def test_tf1_linalg_names_select_the_tf1_face(source: str, face: str) -> None:
    assert detect_face(source) == face


def test_every_tf2_face_name_exists_in_tf221() -> None:
    """The TF2 face offers nothing TF 2.21 lacks, so a rewrite using a gone name fails here too."""
    from runtime.api import real_api
    from runtime.api.tables import build_modules

    api = real_api()
    extra = {}
    for mod in build_modules("tf2").values():
        real = mod.__dict__.get("_real_path")
        if real not in api or real.startswith("tf.compat.v1"):
            continue
        names = set(api[real]["names"])
        unknown = [k for k in vars(mod) if not k.startswith("_") and k not in names and f"{real}.{k}" not in api]
        if unknown:
            extra[real] = unknown
    assert not extra
