"""Which TensorFlow a file is written for, where a call alone cannot say.

Some calls bind under TF1's and TF2's signatures alike, to different parameters
(`tf.nn.dropout(x, keep_prob)`, `tf.boolean_mask(t, m, name, axis)`). tfmigrate rewrites TF1
code, so a file that imports `tensorflow` and makes such a call is read as TF1 code - unless it
shows a sign of TF2: it imports or spells `tensorflow.compat.v2`, names what only TF2 has
(`tf.random.set_seed`, `tf.summary.create_file_writer`), calls what TF2 code is written with
(`tf.function`, `tf.GradientTape`), or makes a call only TF2's signature takes. Where it does,
such calls keep TF2's meaning and are reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from . import api_data

# Names only code written for TF2 calls (TF1.15 had them, its code hardly used them).
TF2_WRITTEN = frozenset({"function", "GradientTape"})


@cache
def tf2_only(path: str) -> bool:
    """A TF 2.21 name TF1's API (kept under `tf.compat.v1`) lacks."""
    return bool(path) and api_data.exists(path) and not api_data.exists(f"compat.v1.{path}")


def shows_tf2(uses_v2_import: bool, named: Iterable[str], readings: Iterable[str | None]) -> bool:
    """A sign of TF2 code: a `tensorflow.compat.v2` import, a name only TF2 has or its code is
    written with, or a call only TF2's signature takes (`readings`: `api_data.call_reading`)."""
    names = set(named)
    return (uses_v2_import or not names.isdisjoint(TF2_WRITTEN) or any(map(tf2_only, names))
            or "tf2" in set(readings))


def read_as_tf1_message(path: str) -> str:
    """What a rewrite says of a call it read as TF1's on no other sign than the file's import."""
    return (f"tf.{path}: TF1 and TF2 bind these arguments to different parameters; read as "
            "TF1's call (the file shows no sign of TF2 code): if this is TF2 code, keep the original")
