"""TF107: tf.assign / assign_add / assign_sub → variable methods."""

from helpers import check_transformed


def test_assign_functions_become_methods_in_any_file() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        v = tf.Variable(0.0)
        a = tf.assign(v, 1.0)  # set
        b = tf.assign_add(v, 2.0)
        """,
        """\
        import tensorflow as tf
        v = tf.Variable(0.0)
        a = v.assign(1.0)  # set
        b = v.assign_add(2.0)
        """,
    )
