"""A weight sized by the dimension its block's input was reshaped to reads it in `build`."""

from __future__ import annotations

import libcst as cst

from migrate.imports import collect_aliases
from migrate.reshaped_dims import reshaped_dims

FLATTEN = """\
def inference(x):
    with tf.name_scope("pool"):
        pool = tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
        shape = pool.get_shape().as_list()
        nodes = shape[1] * shape[2] * shape[3]
        reshaped = tf.reshape(pool, [shape[0], nodes])
"""


def _dims(source: str, names: set[str]) -> tuple[str, list[str]] | None:
    module = cst.parse_module("import tensorflow as tf\n" + source)
    func = module.body[-1]
    assert isinstance(func, cst.FunctionDef)
    return reshaped_dims(func.body.body, names, collect_aliases(module))  # type: ignore[arg-type]


def test_the_reshaped_axis_is_read_from_the_input() -> None:
    assert _dims(FLATTEN, {"nodes", "reshaped"}) == ("reshaped", ["nodes = reshaped.shape[1]"])


def test_a_name_not_among_the_reshape_dimensions_is_a_second_input() -> None:
    assert _dims(FLATTEN, {"nodes", "reshaped", "pool"}) is None


def test_a_dimension_bound_twice_is_no_static_size() -> None:
    assert _dims(FLATTEN + "    nodes = nodes * 2\n", {"nodes", "reshaped"}) is None


def test_a_dimension_bound_in_a_loop_is_no_static_size() -> None:
    looped = FLATTEN.replace("        nodes = shape[1]", "        for nodes in [shape[1]]:\n            pass\n        nodes2 = shape[1]")
    assert _dims(looped, {"nodes", "reshaped"}) is None
