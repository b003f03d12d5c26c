"""TF119: TF1 ``Dimension.value`` on a shape's entry → the int entry TF 2 has."""

from helpers import check_noop, check_transformed

from migrate.api import find_tf1_usages, rewrite_source


def test_value_of_a_static_dimension_is_dropped() -> None:
    check_transformed(
        """\
        import tensorflow as tf


        def flatten(x):
            dim = x.get_shape()[1].value * x.shape[-1].value
            return tf.reshape(x, [-1, dim]), (x.shape[2].value)
        """,
        """\
        import tensorflow as tf


        def flatten(x):
            dim = x.get_shape()[1] * x.shape[-1]
            return tf.reshape(x, [-1, dim]), (x.shape[2])
        """,
    )


def test_other_value_attributes_and_slices_are_left_alone() -> None:
    check_noop(
        """\
        import tensorflow as tf
        import numpy as np

        counter = {"value": 1}
        print(np.zeros(3).shape[0], tf.constant(1.0).numpy(), option.value)
        print(table.shape[1:].value, shape_of(x)[0].value, x.get_shape(1)[0].value)
        """
    )


def test_each_read_is_reported_at_its_line_and_listed_by_check() -> None:
    source = "import tensorflow as tf\nx = tf.zeros([2, 3])\nn = x.shape[1].value\n"
    result = rewrite_source(source)
    assert [(f.rule, f.line) for f in result.findings] == [("TF119", 3)]
    assert [(f.rule, f.line) for f in find_tf1_usages(source)] == [("TF119", 3)]
